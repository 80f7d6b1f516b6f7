import * as z from 'zod/mini';
import { DisplayName } from '../identity/display-name.ts';
import { Email } from '../identity/email.ts';

/** An id in a path: any string is looked up, and one that names nothing is 404 like an unknown one. */
const Id = z.string().check(z.minLength(1), z.maxLength(100));

export const OrganizationPath = z.object({ organizationId: Id });
export const ApplicationPath = z.object({ applicationId: Id });
export const MemberPath = z.object({ organizationId: Id, userId: Id });
export const ApiKeyPath = z.object({ applicationId: Id, keyId: Id });
export const UserPath = z.object({ applicationId: Id, userId: Id });
export const TenantOrganizationPath = z.object({ applicationId: Id, organizationId: Id });
export const TenantMemberPath = z.object({ applicationId: Id, organizationId: Id, userId: Id });
/** An organization's invitation is named by its address: one per address and organization. */
export const InvitationPath = z.object({ organizationId: Id, email: Email });

const Role = z.enum(['owner', 'admin', 'member']);

/**
 * Paging (docs/api.md, "Management API"): `limit` 1 to 100 (default 20), `offset` from 0 (default
 * 0, at most 10000).
 */
const Count = (max: number) =>
  z
    .pipe(
      z.string().check(z.regex(/^\d{1,6}$/, 'a whole number')),
      z.transform((text: string) => Number(text)),
    )
    .check(z.maximum(max));
export const PageQuery = z.object({
  limit: z._default(z.pipe(Count(100), z.number().check(z.minimum(1))), 20),
  offset: z._default(Count(10_000), 0),
});

/** Insights search: a case-insensitive prefix of an address or a name, paginated like any list. */
export const SearchQuery = z.object({
  q: z.string().check(z.minLength(1), z.maxLength(120)),
  limit: PageQuery.shape.limit,
  offset: PageQuery.shape.offset,
});

export const OrganizationBody = z.strictObject({ name: DisplayName });

/** A tenant organization is owned by one of the application's users, named by id or by address. */
export const CreateTenantOrganizationBody = z
  .strictObject({ name: DisplayName, userId: z.optional(Id), email: z.optional(Email) })
  .check(
    z.refine((body) => (body.userId === undefined) !== (body.email === undefined), {
      message: 'name the owner by exactly one of userId, email',
    }),
    // The OpenAPI example (shared/openapi/examples.ts): the JSON Schema cannot say "one of the two".
    z.meta({ example: { name: 'Acme Robotics', email: 'ada@example.com' } }),
  );

export const AddMemberBody = z.strictObject({ email: Email, role: z._default(Role, 'member') });
export const ChangeMemberBody = z.strictObject({ role: Role });

/**
 * An application's name is shown in sign-in emails and pages: it may not look like an address to
 * visit (`https://…`, `www.…`, `name.tld`), which a phisher would use to send people elsewhere.
 */
const ApplicationName = DisplayName.check(
  z.refine((name: string) => !/:\/\/|\bwww\.|[a-z0-9-]\.[a-z]{2,}\b/i.test(name), {
    message: 'an application name cannot look like a web address',
  }),
);

/** An https URL of at most 2048 characters. */
const HttpsUrl = z.url({ protocol: /^https$/, hostname: z.regexes.domain }).check(z.maxLength(2048));
const Color = z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/, 'a colour is #rrggbb'));

const BrandingBody = z.strictObject({
  primaryColor: z.optional(Color),
  backgroundColor: z.optional(Color),
});

export const CreateApplicationBody = z.strictObject({
  name: ApplicationName,
  logoUrl: z.optional(z.nullable(HttpsUrl)),
  branding: z.optional(BrandingBody),
});

export const UpdateApplicationBody = z
  .strictObject({
    name: z.optional(ApplicationName),
    /** Null removes the logo. */
    logoUrl: z.optional(z.nullable(HttpsUrl)),
    /** Replaces the whole branding object. */
    branding: z.optional(BrandingBody),
  })
  .check(
    z.refine((body: Record<string, unknown>) => Object.values(body).some((value) => value !== undefined), {
      message: 'give at least one of name, logoUrl, branding',
    }),
  );

export const CreateApiKeyBody = z.strictObject({
  applicationId: Id,
  type: z.enum(['public', 'secret']),
});
