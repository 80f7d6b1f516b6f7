/** SPEC §2 Page of an unpaginated list: every item, `total` and `hasMore` null. */
export const unpaginated = <T>(items: T[]) => ({
  items,
  page: { limit: items.length, offset: 0, total: null, hasMore: null },
});
