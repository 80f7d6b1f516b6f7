import * as z from 'zod/mini';
import { Page, PublicApplication } from './common.ts';

const Role = z.enum(['owner', 'admin', 'member']);

/** A platform organization as its members see it: their role, its plan and usage (docs/api.md, Organizations). */
export const OrganizationView = z.object({
  id: z.string(),
  name: z.string(),
  role: Role,
  plan: z.object({
    name: z.enum(['free', 'pro', 'enterprise']),
    /** Null: no limit. */
    applicationLimit: z.nullable(z.int()),
  }),
  usage: z.object({ applications: z.int(), members: z.int() }),
  createdAt: z.string(),
});

export const OrganizationList = z.object({ items: z.array(OrganizationView), page: Page });

export const Member = z.object({
  userId: z.string(),
  email: z.string(),
  role: Role,
  joinedAt: z.string(),
});

export const MemberList = z.object({ items: z.array(Member), page: Page });

/** A pending invitation to a platform organization. */
const Invitation = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  email: z.string(),
  role: Role,
  /** The inviter's address. */
  invitedBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});

export const InvitationCreated = z.object({ invitation: Invitation });
export const InvitationList = z.object({ items: z.array(Invitation), page: Page });

/** An organization's pending invitation as its managers list it: who invited which address, to what. */
const PendingInvitation = z.object({
  email: z.string(),
  role: Role,
  /** The inviter's user id and address. */
  invitedBy: z.object({ userId: z.string(), email: z.string() }),
  createdAt: z.string(),
  expiresAt: z.string(),
});

export const PendingInvitationList = z.object({ items: z.array(PendingInvitation), page: Page });

export const ApplicationView = z.extend(PublicApplication, {
  organizationId: z.string(),
  createdAt: z.string(),
});

export const ApplicationList = z.object({ items: z.array(ApplicationView), page: Page });

/** An API key as listed: never the key, never its hash. */
export const ApiKeySummary = z.object({
  id: z.string(),
  applicationId: z.string(),
  type: z.enum(['public', 'secret']),
  /** The key's first characters, to tell keys apart. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
  revokedAt: z.nullable(z.string()),
});

/** A new key: the only answer that ever holds the key itself. */
export const ApiKeyCreated = z.extend(ApiKeySummary, { key: z.string() });

export const ApiKeyList = z.object({ items: z.array(ApiKeySummary), page: Page });
