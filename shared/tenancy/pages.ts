/**
 * The page of an unpaginated list: every item, `total` and `hasMore` null
 * (docs/api.md, "Management API").
 */
export const unpaginated = <T>(items: T[]) => ({
  items,
  page: { limit: items.length, offset: 0, total: null, hasMore: null },
});
