import * as z from 'zod/mini';
import { auditWrites, type StoredAuditEntry } from './audit.ts';
import { deleteItems, type Item } from './batch.ts';
import type { Db } from './db.ts';
import { afterPrefix, decoder } from './decode.ts';
import type { TransactItem } from './errors.ts';
import { queryAll, queryUpTo, readNow } from './items.ts';
import { keys } from './keys.ts';
import { type Read, readMany, readRecords } from './reads.ts';
import { type TransactOutcome, transactWrite } from './transact.ts';
import { applicationExists } from './users.ts';

/** The stored organization (shared/tenancy/organizations.ts reads it). */
export interface StoredOrganization {
  id: string;
  name: string;
  /** A platform organization (owns applications), or a tenant organization of one application. */
  kind: 'platform' | 'tenant';
  applicationId?: string;
  createdAt: string;
}

/** A member's role as stored (shared/tenancy/permissions.ts `Role`). */
export const StoredRole = z.enum(['owner', 'admin', 'member']);
type Role = z.infer<typeof StoredRole>;

const OrganizationRecord = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['platform', 'tenant']),
  applicationId: z.optional(z.string()),
  /** Whatever an operator wrote (shared/tenancy/plans.ts `planOf` reads it); absent: free. */
  plan: z.optional(z.unknown()),
  /** Counters; absent on organizations made at first sign-in before they existed. */
  applicationCount: z.optional(z.number()),
  memberCount: z.optional(z.number()),
  createdAt: z.string(),
  /** The platform account that created it; older ones name their first owner as `ownerId`. */
  createdBy: z.optional(z.string()),
  ownerId: z.optional(z.string()),
});
/** An organization item (`ORG#<id>` / `ORG`) as the repositories return it. */
export type OrganizationRecord = z.infer<typeof OrganizationRecord>;
const organizationRecord = decoder('organization', OrganizationRecord);
const organizationRead = (organizationId: string): Read<OrganizationRecord> => ({
  key: keys.organization(organizationId),
  decode: organizationRecord,
});

const MemberFields = z.object({
  /** Absent, with `organizationId` and `email`, on memberships written at first sign-in before the management API. */
  userId: z.optional(z.string()),
  organizationId: z.optional(z.string()),
  email: z.optional(z.string()),
  role: StoredRole,
  createdAt: z.string(),
  /** Moved by each impersonation the member starts (shared/store/impersonations.ts). */
  impersonationStarts: z.optional(z.number()),
  /** When the member last lost an owner's or a manager's rights (`rightsLost`). */
  ownerLostAt: z.optional(z.string()),
  managerLostAt: z.optional(z.string()),
});
/** A membership item (`ORG#<org>` / `MEMBER#<user>`); its ids come from its keys where it holds none. */
export type MemberRecord = Omit<z.infer<typeof MemberFields>, 'userId' | 'organizationId'> & {
  userId: string;
  organizationId: string;
};
const memberFields = decoder('membership', MemberFields);
const memberRecord = (item: Item): MemberRecord => {
  const fields = memberFields(item);
  return {
    ...fields,
    userId: fields.userId ?? afterPrefix(item.sk, keys.member('', '').sk),
    organizationId: fields.organizationId ?? afterPrefix(item.pk, keys.organization('').pk),
  };
};

/** The read of a membership, for a batch. */
export const memberRead = (organizationId: string, userId: string): Read<MemberRecord> => {
  const { pk, sk } = keys.member(organizationId, userId);
  return { key: { pk, sk }, decode: memberRecord };
};

export interface NewMember {
  userId: string;
  email: string;
  role: Role;
  createdAt: string;
}

/**
 * The Puts creating an organization with its first member, an owner: the counters the invariants
 * are conditioned on start here (docs/api.md, Organizations: applications against the plan; an owner always).
 */
export function organizationWrites(table: string, org: StoredOrganization, owner: NewMember): TransactItem[] {
  const tenantIndex =
    org.kind === 'tenant' && org.applicationId ? keys.tenantOrganization(org.applicationId, org.id) : {};
  return [
    {
      Put: {
        TableName: table,
        Item: {
          ...keys.organization(org.id),
          ...tenantIndex,
          type: 'organization',
          ...org,
          plan: 'free',
          applicationCount: 0,
          memberCount: 1,
          ownerCount: 1,
          createdBy: owner.userId,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    { Put: { TableName: table, Item: memberItem(org.id, owner) } },
  ];
}

const memberItem = (organizationId: string, member: NewMember) => ({
  ...keys.member(organizationId, member.userId),
  type: 'member',
  organizationId,
  ...member,
});

export type CreateOrganizationOutcome = 'created' | 'overLimit' | 'conflict';

/**
 * Creates a platform organization and counts it on its creator's user item, in ONE
 * TransactWriteItems: the creator's counter (the organization of its first sign-in counts as one)
 * stays below `limit` under parallel creates.
 */
export async function createOrganization(
  db: Db,
  org: StoredOrganization,
  owner: NewMember,
  limit: number,
  audit: StoredAuditEntry,
): Promise<CreateOrganizationOutcome> {
  const written = await transactWrite(db, [
    ...organizationWrites(db.table, org, owner),
    {
      Update: {
        TableName: db.table,
        Key: keys.user(owner.userId),
        UpdateExpression: 'SET createdOrganizations = if_not_exists(createdOrganizations, :one) + :one',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(createdOrganizations) OR createdOrganizations < :limit)',
        ExpressionAttributeValues: { ':one': 1, ':limit': limit },
      },
    },
    ...auditWrites(db.table, audit),
  ]);
  if (written.outcome === 'written') return 'created';
  if (written.outcome === 'conflict') return 'conflict';
  if (!written.failed.includes(2)) throw new Error('a new organization id collided with a stored one');
  return 'overLimit';
}

/** The organization and the caller's membership of it, in ONE BatchGetItem. */
export async function readOrganizationAndMember(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<{ organization?: OrganizationRecord; member?: MemberRecord }> {
  return readRecords(db, {
    organization: organizationRead(organizationId),
    member: memberRead(organizationId, userId),
  });
}

/** One strongly consistent GetItem. */
export async function readMember(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<MemberRecord | undefined> {
  const item = await readNow(db, keys.member(organizationId, userId));
  return item && memberRecord(item);
}

/** The organizations of `organizationIds` that exist, 100 to a BatchGetItem (strongly consistent). */
export const readOrganizations = (
  db: Db,
  organizationIds: readonly string[],
): Promise<OrganizationRecord[]> => readMany(db, organizationIds.map(organizationRead));

/** The memberships of a user (gsi1, eventually consistent): one Query per page. */
export async function membershipsOf(db: Db, userId: string): Promise<MemberRecord[]> {
  const { gsi1pk, gsi1sk } = keys.member('', userId);
  const items = await queryAll(db, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :user AND begins_with(gsi1sk, :org)',
    ExpressionAttributeValues: { ':user': gsi1pk, ':org': gsi1sk },
  });
  return items.map(memberRecord);
}

/** Every membership of an organization (strongly consistent). */
export async function membersOf(db: Db, organizationId: string): Promise<MemberRecord[]> {
  const items = await queryAll(db, {
    KeyConditionExpression: 'pk = :org AND begins_with(sk, :member)',
    ExpressionAttributeValues: {
      ':org': keys.organization(organizationId).pk,
      ':member': keys.member(organizationId, '').sk,
    },
    ConsistentRead: true,
  });
  return items.map(memberRecord);
}

export type RenameOutcome = 'renamed' | 'missing' | 'changed' | 'conflict';

/**
 * Renames an organization whose name is still `from` and appends its audit entry, in ONE
 * TransactWriteItems: `changed` when a concurrent rename came first (nothing written).
 */
export async function renameOrganization(
  db: Db,
  organizationId: string,
  rename: { from: string; to: string },
  audit: StoredAuditEntry,
): Promise<RenameOutcome> {
  const written = await transactWrite(db, [
    {
      Update: {
        TableName: db.table,
        Key: keys.organization(organizationId),
        UpdateExpression: 'SET #name = :name',
        ConditionExpression: 'attribute_exists(pk) AND #name = :from',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':name': rename.to, ':from': rename.from },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    ...auditWrites(db.table, audit),
  ]);
  if (written.outcome === 'written') return 'renamed';
  if (written.outcome === 'conflict') return 'conflict';
  return written.current[0] ? 'changed' : 'missing';
}

// An organization is deleted only while it holds no application (its counter says so).
const holdsNoApplication =
  'attribute_exists(pk) AND (attribute_not_exists(applicationCount) OR applicationCount = :zero)';
/** A transaction holds at most 100 items: the organization and 99 members go with it, the rest after. */
const MEMBERS_IN_TRANSACTION = 99;

/** `membersChanged`: only with an expected member count, which the organization no longer has. */
export type DeleteOrganizationOutcome =
  | 'deleted'
  | 'missing'
  | 'holdsApplications'
  | 'membersChanged'
  | 'conflict';

/** Rounds of reading the members and deleting, when members keep joining or leaving meanwhile. */
const DELETE_ROUNDS = 3;

/**
 * Deletes the organization under the no-application condition, with its members in the same
 * transaction (beyond 99 members, the rest right after: without their organization they name
 * nothing). The delete is conditioned on the member count it read, so a member who joins between
 * the read and the delete fails it and the members are read again: no membership outlives its
 * organization. `also` rides in the same transaction (counters of the application or creator).
 * With `expectedMembers` (a deleted user's own organization, decided from an earlier read), the
 * organization is deleted only while it has exactly that many members: `membersChanged` otherwise,
 * nothing written (a member who joined since keeps it).
 */
export async function deleteOrganization(
  db: Db,
  organizationId: string,
  also: TransactItem[] = [],
  expectedMembers?: number,
): Promise<DeleteOrganizationOutcome> {
  for (let round = 0; round < DELETE_ROUNDS; round++) {
    const members = await membersOf(db, organizationId);
    if (expectedMembers !== undefined && members.length !== expectedMembers) return 'membersChanged';
    const memberKeys = members.map((member) => {
      const { pk, sk } = keys.member(organizationId, member.userId);
      return { pk, sk };
    });
    const written = await transactWrite(db, [
      {
        Delete: {
          TableName: db.table,
          Key: keys.organization(organizationId),
          // Organizations made before the counters have one member.
          ConditionExpression: `${holdsNoApplication} AND (attribute_not_exists(memberCount) OR memberCount = :members)`,
          ExpressionAttributeValues: { ':zero': 0, ':members': members.length },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      ...also,
      ...memberKeys
        .slice(0, MEMBERS_IN_TRANSACTION - also.length)
        .map((Key) => ({ Delete: { TableName: db.table, Key } })),
    ]);
    if (written.outcome === 'conflict') return 'conflict';
    if (written.outcome === 'written') {
      await deleteItems(db, memberKeys.slice(MEMBERS_IN_TRANSACTION - also.length));
      return 'deleted';
    }
    if (!written.failed.includes(0))
      throw new Error(`deleting ${organizationId}: a counter it moves refused`);
    const current = written.current[0];
    if (!current) return 'missing';
    if ((organizationRecord(current).applicationCount ?? 0) > 0) return 'holdsApplications';
    if (expectedMembers !== undefined) return 'membersChanged';
    // The members changed since they were read: read them again.
  }
  return 'conflict';
}

/**
 * Gives the creator of a deleted platform organization its place back (ORGANIZATIONS_PER_ACCOUNT),
 * in the deleting transaction: a counter never written counts the first sign-in's organization.
 */
export const uncountCreatedOrganization = (table: string, userId: string): TransactItem => ({
  Update: {
    TableName: table,
    Key: keys.user(userId),
    UpdateExpression: 'SET createdOrganizations = if_not_exists(createdOrganizations, :one) - :one',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':one': 1 },
  },
});

/** One organization item, strongly consistent: one GetItem. */
export async function readOrganization(
  db: Db,
  organizationId: string,
): Promise<OrganizationRecord | undefined> {
  const item = await readNow(db, keys.organization(organizationId));
  return item && organizationRecord(item);
}

/** One page of an application's tenant organizations, by id (gsi1, eventually consistent). */
export async function tenantOrganizationsOf(
  db: Db,
  applicationId: string,
  page: { limit: number; offset: number },
): Promise<OrganizationRecord[]> {
  const items = await queryUpTo(
    db,
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :app',
      ExpressionAttributeValues: { ':app': keys.tenantOrganization(applicationId, '').gsi1pk },
    },
    page.offset + page.limit,
  );
  return items.slice(page.offset).map(organizationRecord);
}

/** A tenant organization with its owner, while its application exists (the aggregator counts it). */
export async function createTenantOrganization(
  db: Db,
  org: StoredOrganization & { applicationId: string },
  owner: NewMember,
  audit: StoredAuditEntry,
): Promise<TransactOutcome> {
  return transactWrite(db, [
    ...organizationWrites(db.table, org, owner),
    applicationExists(db.table, org.applicationId),
    ...auditWrites(db.table, audit),
  ]);
}

/**
 * Deletes a tenant organization and its members while its application exists (`expectedMembers`:
 * see deleteOrganization), with the audit entry of a manager's delete.
 */
export const deleteTenantOrganization = (
  db: Db,
  applicationId: string,
  organizationId: string,
  options: { expectedMembers?: number; audit?: StoredAuditEntry } = {},
) =>
  deleteOrganization(
    db,
    organizationId,
    [
      applicationExists(db.table, applicationId),
      ...(options.audit ? auditWrites(db.table, options.audit) : []),
    ],
    options.expectedMembers,
  );

/**
 * Removes the membership of a deleted user whatever its role, moving the counters: an organization
 * whose last owner was deleted keeps its other members, without an owner until one is made.
 */
export async function dropMember(
  db: Db,
  organizationId: string,
  member: { userId: string; role: Role },
): Promise<MemberOutcome> {
  const owners = member.role === 'owner' ? -1 : 0;
  const written = await transactWrite(db, [
    counterUpdate(db.table, organizationId, { members: -1, owners }, false),
    {
      Delete: {
        TableName: db.table,
        Key: {
          pk: keys.member(organizationId, member.userId).pk,
          sk: keys.member(organizationId, member.userId).sk,
        },
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
  ]);
  return written.outcome === 'failed' ? 'missing' : written.outcome;
}

/** The organization counters one membership change moves, and the condition it keeps. */
interface CounterChange {
  members: -1 | 0 | 1;
  owners: -1 | 0 | 1;
}

function counterUpdate(
  table: string,
  organizationId: string,
  change: CounterChange,
  keepOwner = true,
): TransactItem {
  // Organizations made before the counters existed have one member, an owner.
  const set = [
    'memberCount = if_not_exists(memberCount, :one) + :members',
    'ownerCount = if_not_exists(ownerCount, :one) + :owners',
  ];
  // An organization always keeps an owner (docs/api.md, Organizations).
  // A missing counter is one owner: the comparison is false then, as it must be.
  const keepsOwner = change.owners < 0 && keepOwner ? ' AND ownerCount > :one' : '';
  return {
    Update: {
      TableName: table,
      Key: keys.organization(organizationId),
      UpdateExpression: `SET ${set.join(', ')}`,
      ConditionExpression: `attribute_exists(pk)${keepsOwner}`,
      ExpressionAttributeValues: { ':one': 1, ':members': change.members, ':owners': change.owners },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * `failed`: the organization is gone, the member is (not) there, or the last owner would go;
 * `raced`: the member started an impersonation, or one it ends was ended, since the read.
 */
export type MemberOutcome =
  | 'written'
  | 'exists'
  | 'missing'
  | 'memberGone'
  | 'changed'
  | 'lastOwner'
  | 'raced'
  | 'conflict';

/**
 * The running impersonations a membership change ends, in its transaction (shared/tenancy/
 * impersonation.ts `endingsOf`), read after the membership's `impersonationStarts` was.
 */
export interface MemberEnding {
  impersonationStarts: number;
  writes: TransactItem[];
}

/**
 * The writes adding a member unless already one: the organization's counters (it must exist) and
 * the membership Put, in this order (index 0 fails for a missing organization, 1 for a member).
 */
export function newMemberWrites(table: string, organizationId: string, member: NewMember): TransactItem[] {
  return [
    counterUpdate(table, organizationId, { members: 1, owners: member.role === 'owner' ? 1 : 0 }),
    {
      Put: {
        TableName: table,
        Item: memberItem(organizationId, member),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/** Adds a member unless already one, moving the counters in the same transaction. */
export async function addMember(
  db: Db,
  organizationId: string,
  member: NewMember,
  audit: StoredAuditEntry,
): Promise<MemberOutcome> {
  const written = await transactWrite(db, [
    ...newMemberWrites(db.table, organizationId, member),
    ...auditWrites(db.table, audit),
  ]);
  if (written.outcome !== 'failed') return written.outcome;
  return written.failed.includes(0) ? 'missing' : 'exists';
}

/** `#role IN (...)`: the item's `role` (an invitation's or a membership's) is one of `roles`. */
export function roleIn(roles: readonly string[]) {
  if (roles.length === 0) throw new Error('no role to condition on');
  const placeholders = roles.map((_, index) => `:role${index}`);
  return {
    expression: `#role IN (${placeholders.join(', ')})`,
    names: { '#role': 'role' },
    values: Object.fromEntries(roles.map((role, index) => [`:role${index}`, role])),
  };
}

/**
 * When a member last lost the rights an invitation it sent needs (docs/api.md, Organizations): an
 * owner's (`ownerLostAt`, to offer an owner) or a manager's (`managerLostAt`, to invite at all). An
 * invitation sent before that time is void for good, even once the member is promoted again
 * (shared/store/invitations.ts `acceptInvitation`).
 */
function rightsLost(from: Role, to: Role): string[] {
  const lost: string[] = [];
  if (from === 'owner' && to !== 'owner') lost.push('ownerLostAt = :at');
  if (from !== 'member' && to === 'member') lost.push('managerLostAt = :at');
  return lost;
}

/**
 * Removes a member whose role is still `role` (as read), or changes it to `to`: the owner counter
 * moves in the same transaction, under the condition that one owner stays. With `ending`, the
 * member's running impersonations end in the same transaction, which holds only while the member
 * started none since its `impersonationStarts` was read (a start moves it: shared/store/
 * impersonations.ts `startImpersonation`): no impersonation outlives the role that allowed it.
 */
export async function changeMember(
  db: Db,
  organizationId: string,
  member: { userId: string; role: Role },
  to: Role | 'removed',
  ending: MemberEnding | undefined,
  audit: StoredAuditEntry,
): Promise<MemberOutcome> {
  const owners = ((to === 'owner' ? 1 : 0) - (member.role === 'owner' ? 1 : 0)) as -1 | 0 | 1;
  const key = keys.member(organizationId, member.userId);
  // Never written before the member's first start: absent then.
  const startsAsRead = !ending
    ? ''
    : ending.impersonationStarts === 0
      ? ' AND attribute_not_exists(impersonationStarts)'
      : ' AND impersonationStarts = :starts';
  const stillRole = {
    ConditionExpression: `#role = :role${startsAsRead}`,
    ExpressionAttributeNames: { '#role': 'role' },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  const starts = ending && ending.impersonationStarts > 0 ? { ':starts': ending.impersonationStarts } : {};
  const memberWrite: TransactItem =
    to === 'removed'
      ? {
          Delete: {
            TableName: db.table,
            Key: { pk: key.pk, sk: key.sk },
            ...stillRole,
            ExpressionAttributeValues: { ':role': member.role, ...starts },
          },
        }
      : {
          Update: {
            TableName: db.table,
            Key: { pk: key.pk, sk: key.sk },
            UpdateExpression: ['SET #role = :to', ...rightsLost(member.role, to)].join(', '),
            ...stillRole,
            ExpressionAttributeValues: {
              ':role': member.role,
              ':to': to,
              ...starts,
              ...(rightsLost(member.role, to).length > 0 ? { ':at': audit.at } : {}),
            },
          },
        };
  const written = await transactWrite(db, [
    counterUpdate(db.table, organizationId, { members: to === 'removed' ? -1 : 0, owners }),
    memberWrite,
    ...(ending?.writes ?? []),
    ...(audit ? auditWrites(db.table, audit) : []),
  ]);
  if (written.outcome !== 'failed') return written.outcome;
  // Read from the items as they are: the organization gone, the member gone or changed, or the
  // owner counter refusing to lose its last owner.
  // (A cancellation returns the items whose condition failed, and only those.)
  const [organization, current] = written.current;
  if (written.failed.includes(1)) {
    if (!current) return 'memberGone';
    return current.role === member.role ? 'raced' : 'changed';
  }
  // An impersonation it ends was ended meanwhile.
  if (written.failed.some((index) => index > 1)) return 'raced';
  return organization ? 'lastOwner' : 'missing';
}
