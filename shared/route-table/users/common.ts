/** What the routes of users.ts share (shared/route-table/users.ts). */
import { manageErrors } from '../../route-spec.ts';

export const read = { table: 'read', publicKeys: true } as const;

export const readwrite = { table: 'readwrite', publicKeys: true } as const;

export const readUsers = { action: 'users.read', from: 'params' } as const;

export const writeUsers = { action: 'users.write', from: 'params' } as const;

/** A write on one user: no such user is 404; DynamoDB's transaction conflicts answer 429 busy. */
export const userWriteErrors = [...manageErrors, 'rateLimited'] as const;
