/** What the routes of tenant-organizations.ts share (shared/route-table/tenant-organizations.ts). */

export const read = { table: 'read', publicKeys: true } as const;

export const readwrite = { table: 'readwrite', publicKeys: true } as const;

export const readOrgs = { action: 'tenantOrganizations.read', from: 'params' } as const;

export const writeOrgs = { action: 'tenantOrganizations.write', from: 'params' } as const;

export const base = '/applications/{applicationId}/organizations';
