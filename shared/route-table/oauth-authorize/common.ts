/** What the routes of oauth-authorize.ts share (shared/route-table/oauth-authorize.ts). */

export const html = { raw: 'text/html' } as const;
