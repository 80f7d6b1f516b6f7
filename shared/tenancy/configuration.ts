import { isDeepStrictEqual } from 'node:util';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import { apiKeyEntries } from '../store/api-keys.ts';
import { type ApplicationRecord, readApplicationNow } from '../store/applications.ts';
import { readResource, writeConfiguration } from '../store/configuration.ts';
import { invalidRequest } from '../validation.ts';
import { type Application, applicationFromRecord } from './applications.ts';
import { type AuditRequest, changeEntry, changesBetween, socialSignInEntry } from './audit.ts';
import { type ApplicationGrant, grantAllows } from './authorize.ts';
import {
  type Configuration,
  type ConfigurationInput,
  type ConfigurationPatch,
  configurationView,
  patched,
  replaced,
  resourceUri,
  storedConfig,
} from './configuration-document.ts';
import { resourceProver } from './resource-proof.ts';
import { isForeignServiceResource } from './service-resources.ts';
import { retargetedSecrets, sealSecrets, socialSignInChanges } from './social-providers.ts';

/** Lost races before a configuration write answers 429 busy: each one means another write landed. */
const MAX_WRITES = 4;

/**
 * The audit entry of a write that changes social sign-in (a secret sealed again included), or
 * undefined when it leaves it as it was. Refused (403) unless the caller is a signed-in owner or
 * admin: whoever sets a provider or a return URL can sign in as the application's users.
 */
function socialSignInAudit(deps: Deps, grant: ApplicationGrant, before: Configuration, next: Configuration) {
  const changes = socialSignInChanges(before, next);
  if (changes.length === 0) return [];
  const { principal } = grant;
  if (!grantAllows(grant, 'socialSignIn.write') || principal.kind !== 'member') {
    throw fail(
      'forbidden',
      "Only an owner or admin, signed in, may change social sign-in (socialProviders, socialReturnUrls): whoever sets them can sign in as the application's users",
    );
  }
  return [
    socialSignInEntry(deps, {
      applicationId: grant.application.id,
      organizationId: grant.application.organizationId,
      targetType: 'configuration',
      targetId: grant.application.id,
      targetLabel: grant.application.name,
      actorKind: 'user',
      actorId: principal.user.id,
      actorEmail: principal.user.email,
      changes,
    }),
  ];
}

/** The settings of the document a `configuration.changed` entry names (social sign-in has its own entry). */
const SETTINGS = ['origin', 'authentication.syntheticEmailDomain', 'oauth.resources'] as const;

/** The entry of a write that changes the settings besides social sign-in, if it does. */
function settingsAudit(
  deps: Deps,
  audit: AuditRequest,
  app: Application,
  before: Configuration,
  next: Configuration,
) {
  const changes = changesBetween(before, next, SETTINGS);
  if (changes.length === 0) return [];
  return [
    changeEntry(deps, audit, 'configuration.changed', {
      organizationId: app.organizationId,
      applicationId: app.id,
      targetId: app.id,
      targetLabel: app.name,
      changes,
    }),
  ];
}

/**
 * Seals a client secret for `app` (docs/security.md, "Provider client secrets"): the plaintext goes
 * no further than this.
 */
const sealFor = (deps: Deps, app: Application) => (plaintext: string) => deps.sealer.seal(app.id, plaintext);

/**
 * `PUT /applications/{id}/configuration`: the whole document replaced; a client secret left out
 * (or sent back as `{ set: true }`) keeps the stored one. Answers the read view.
 */
export async function replaceConfiguration(
  deps: Deps,
  audit: AuditRequest,
  grant: ApplicationGrant,
  input: ConfigurationInput,
) {
  const app = grant.application;
  const sealed = { ...input, socialProviders: await sealSecrets(input.socialProviders, sealFor(deps, app)) };
  const written = await changeConfiguration(deps, audit, grant, (current) => {
    const next = replaced(current, sealed);
    if (!next.success) throw invalidRequest('body', next.error.issues);
    return next.data;
  });
  return configurationView(written);
}

/**
 * `PATCH /applications/{id}/configuration`: an RFC 7396 merge patch, merged into the document as it
 * is when written (again after a lost race) and validated as a whole, so a 400 names the key. Its
 * client secrets are sealed once, before the first merge.
 */
export async function patchConfiguration(
  deps: Deps,
  audit: AuditRequest,
  grant: ApplicationGrant,
  patch: ConfigurationPatch,
) {
  const app = grant.application;
  const sealed = patch.socialProviders
    ? { ...patch, socialProviders: await sealSecrets(patch.socialProviders, sealFor(deps, app)) }
    : patch;
  const written = await changeConfiguration(deps, audit, grant, (current) => {
    const merged = patched(current, sealed);
    if (!merged.success) throw invalidRequest('body', merged.error.issues);
    return merged.data;
  });
  return configurationView(written);
}

/**
 * Decides the new document from the current one and writes it with the resource claims and
 * releases it implies, conditioned on the version and origin it was decided from (shared/store/
 * configuration.ts). A lost race returns the application as it is now: decide again, at most
 * MAX_WRITES times. An unchanged document writes nothing, but "unchanged" is only ever decided from
 * a strongly consistent read: the caller's copy of the application may come from an eventually
 * consistent one (a key caller's, shared/sessions/resolve.ts), which can still hold the document
 * as it was before the last write, and skipping the write on it would lose this one.
 */
async function changeConfiguration(
  deps: Deps,
  request: AuditRequest,
  grant: ApplicationGrant,
  decide: (current: Configuration) => Configuration,
): Promise<Configuration> {
  const app = grant.application;
  const prove = resourceProver(deps, app.id);
  let current = app;
  let consistent = false;
  for (let write = 0; write < MAX_WRITES; ) {
    const before = current.configuration;
    const next = decide(before);
    refuseServiceResources(deps, app.id, next);
    const retargeted = retargetedSecrets(before.socialProviders, next.socialProviders);
    if (retargeted.length > 0) throw invalidRequest('body', retargeted);
    const audit = [
      ...settingsAudit(deps, request, current, before, next),
      ...socialSignInAudit(deps, grant, before, next).map((entry) => ({
        ...entry,
        ip: request.ip,
        userAgent: request.userAgent,
      })),
    ];
    // RFC 9728 §3.3: a resource the write adds must name this service (shared/tenancy/resource-proof.ts).
    const unproven = await prove(before.oauth.resources, next.oauth.resources);
    if (unproven.length > 0) throw invalidRequest('body', unproven);
    if (isDeepStrictEqual(next, before)) {
      if (consistent) return before;
      current = await fresh(deps, app.id, undefined);
      consistent = true;
      continue;
    }
    write++;
    const held = new Set(before.oauth.resources);
    const wanted = new Set(next.oauth.resources);
    const outcome = await writeConfiguration(deps.db, {
      applicationId: app.id,
      read: { version: current.configurationVersion, origin: before.origin },
      config: storedConfig(next),
      origin: next.origin,
      claim: [...wanted].filter((uri) => !held.has(uri)),
      release: [...held].filter((uri) => !wanted.has(uri)),
      keyFlags:
        (before.origin === null) === (next.origin === null)
          ? undefined
          : { keyHashes: await activeKeyHashes(deps, app.id), originKnown: next.origin !== null },
      audit,
    });
    switch (outcome.outcome) {
      case 'written':
        return next;
      case 'missing':
        throw fail('notFound', 'No such application');
      case 'taken':
        throw fail('resourceTaken', 'Another application already registered this OAuth resource', {
          resource: outcome.resource,
        });
      case 'conflict':
        throw tooBusy();
      case 'stale':
        // The failed condition's item, or a consistent read: the application as it is now.
        current = await fresh(deps, app.id, outcome.current);
        consistent = true;
    }
  }
  throw tooBusy();
}

/**
 * 400 naming each resource on the service's own origin that is not the application's own MCP
 * resource (shared/tenancy/service-resources.ts). The whole document is checked, so a resource
 * claimed before this rule must be removed before anything else changes.
 */
function refuseServiceResources(deps: Deps, applicationId: string, next: Configuration) {
  const issues = next.oauth.resources.flatMap((uri, index) =>
    isForeignServiceResource(deps.config.ISSUER, applicationId, uri)
      ? [
          {
            code: 'custom' as const,
            path: ['oauth', 'resources', index],
            message: "a resource on this service's origin may only be the application's own MCP resource",
            input: uri,
          },
        ]
      : [],
  );
  if (issues.length > 0) throw invalidRequest('body', issues);
}

/** The application as a lost race found it, or read again (consistently) when DynamoDB did not say. */
async function fresh(deps: Deps, applicationId: string, record: ApplicationRecord | undefined) {
  const found = record ?? (await readApplicationNow(deps.db, applicationId));
  if (!found) throw fail('notFound', 'No such application');
  return applicationFromRecord(found);
}

/** The storage hashes of the application's keys that still work (revoked keys never authenticate). */
async function activeKeyHashes(deps: Deps, applicationId: string): Promise<string[]> {
  const entries = await apiKeyEntries(deps.db, applicationId);
  return entries.filter((entry) => entry.revokedAt === undefined).map((entry) => entry.keyHash);
}

/**
 * The application that registered the OAuth resource `uri` (RFC 8707), or null: one strongly
 * consistent read of its resource item. `uri` is compared in the form the configuration stores. On
 * the service's own origin only `<ISSUER>/mcp/<id>` held by `<id>` names an application.
 */
export async function applicationOfResource(deps: Deps, uri: string): Promise<string | null> {
  const resource = resourceUri(uri);
  if (!resource) return null;
  const holder = (await readResource(deps.db, resource))?.applicationId ?? null;
  // A squat stored before the configuration refused it names no application.
  if (holder !== null && isForeignServiceResource(deps.config.ISSUER, holder, resource)) return null;
  return holder;
}
