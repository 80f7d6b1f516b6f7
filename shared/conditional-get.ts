/**
 * Conditional GET (RFC 9110 §13.1.2, https://www.rfc-editor.org/rfc/rfc9110#section-13.1.2): whether a
 * request's `If-None-Match` names the representation's entity tag, so it answers 304. Shared by the
 * profile images and the dashboard's files.
 */

/** The entity tags of If-None-Match, compared weakly (a `W/` prefix is dropped). */
export const entityTags = (header: string | undefined): string[] =>
  (header ?? '')
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .filter((tag) => tag.length > 0);

/** Whether `ifNoneMatch` names `etag`, or is `*` (any current representation). */
export const namesEntityTag = (ifNoneMatch: string | undefined, etag: string): boolean => {
  const tags = entityTags(ifNoneMatch);
  return tags.includes(etag) || tags.includes('*');
};
