import { Annotations, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyDocument, type PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { SIGNING_ALGORITHM } from '../shared/crypto/signer.ts';
import type { SigningKeyGeneration } from './inputs.ts';
import { administerWithoutUse, allowRoles, denyAllBut } from './key-policy.ts';

/** How long clients may cache the JWKS (functions/well-known/jwks.ts: `max-age=3600`). */
const JWKS_CACHE_MS = 3_600_000;

/**
 * What the account's administrators (the account root principal, and through it IAM policies) may
 * do with a signing key: manage it, never use it. Listed one by one, without wildcards: no
 * `kms:Sign`, no `kms:GetPublicKey`, and no `kms:CreateGrant` (a grant could hand out Sign).
 * `kms:PutKeyPolicy` stays: CloudFormation needs it to deploy the policy, and KMS refuses a policy
 * that locks out its own administrators. Changing the policy is a CloudTrail `PutKeyPolicy` event.
 */
export const KEY_ADMIN_ACTIONS = [
  'kms:DescribeKey',
  'kms:GetKeyPolicy',
  'kms:PutKeyPolicy',
  'kms:ListKeyPolicies',
  'kms:ListResourceTags',
  'kms:ListGrants',
  'kms:RevokeGrant',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:UpdateKeyDescription',
  'kms:CreateAlias',
  'kms:UpdateAlias',
  'kms:DeleteAlias',
  'kms:EnableKey',
  'kms:DisableKey',
  'kms:ScheduleKeyDeletion',
  'kms:CancelKeyDeletion',
] as const;

/** The roles that use the keys, by ARN: who may sign, who may read the public keys. */
export interface SigningKeyUsers {
  readonly signerRoleArns: readonly string[];
  readonly publicKeyRoleArns: readonly string[];
}

/** The key policy statements of every generation beside administration (statement ids are stable). */
function keyUseStatements(users: SigningKeyUsers): PolicyStatement[] {
  const signers = users.signerRoleArns;
  return [
    // KmsSigner sends only a SHA-256 digest with this algorithm; nothing else may be signed.
    ...(signers.length > 0
      ? [
          allowRoles('SignWithTheServiceRoles', 'kms:Sign', signers, {
            StringEquals: { 'kms:SigningAlgorithm': SIGNING_ALGORITHM, 'kms:MessageType': 'DIGEST' },
          }),
        ]
      : []),
    // Whatever any other policy, grant or future statement says: only the signing roles sign.
    denyAllBut('DenySignToEveryoneElse', 'kms:Sign', signers),
    ...(users.publicKeyRoleArns.length > 0
      ? [allowRoles('ReadThePublicKey', 'kms:GetPublicKey', users.publicKeyRoleArns)]
      : []),
  ];
}

export interface SigningKeyProps {
  readonly serviceName: string;
  /** Default: one generation `1` that always signs. */
  readonly generations?: readonly SigningKeyGeneration[];
  /** The synth time, to warn about a generation that starts signing within the JWKS cache period. */
  readonly now?: number;
}

/** One deployed generation. */
export interface SigningKeyVersion extends SigningKeyGeneration {
  readonly key: Key;
}

/**
 * The RSA keys that sign session tokens (RS256), one per generation (AWS cannot rotate asymmetric
 * keys: a rotation is a new key). Their private halves never leave KMS. Each key's policy is
 * explicit (no account-default `kms:*`): administrators manage, only the signing roles sign, and
 * `allow` adds the users once their roles exist (the roles do not refer to the keys, so the key
 * policies may refer to the roles without a cycle).
 */
export class SigningKey extends Construct {
  readonly versions: readonly SigningKeyVersion[];

  constructor(scope: Construct, id: string, props: SigningKeyProps) {
    super(scope, id);
    const generations = props.generations ?? [{ id: '1' }];
    const now = props.now ?? Date.now();
    // The generation that signed first (no notBefore, or the earliest): it is never "added" by a rotation.
    const startOf = (generation: SigningKeyGeneration) =>
      generation.notBefore === undefined ? Number.NEGATIVE_INFINITY : Date.parse(generation.notBefore);
    const first = generations.reduce((a, b) => (startOf(b) < startOf(a) ? b : a));
    this.versions = generations.map((generation) => {
      const original = generation.id === '1';
      const admin = administerWithoutUse(KEY_ADMIN_ACTIONS);
      const key = new Key(this, original ? 'Key' : `Key${generation.id}`, {
        description: `${props.serviceName}: signs session tokens (RS256), generation ${generation.id}`,
        keySpec: KeySpec.RSA_2048,
        keyUsage: KeyUsage.SIGN_VERIFY,
        alias: original
          ? `alias/${props.serviceName}-signing`
          : `alias/${props.serviceName}-signing-${generation.id}`,
        policy: new PolicyDocument({ statements: [admin] }),
        // Tokens signed by this key stay verifiable only while it exists; a failed first create,
        // which signed nothing, deletes it (docs/operations.md, "Teardown").
        removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
        pendingWindow: Duration.days(30),
      });
      if (generation !== first && generation.notBefore !== undefined) {
        const starts = Date.parse(generation.notBefore);
        // Also when it already started: a deploy that adds a generation whose notBefore has passed
        // makes it sign at once, before any verifier's cached JWKS knows it.
        if (starts < now + JWKS_CACHE_MS) {
          Annotations.of(key).addWarningV2(
            'doorcode:signing-key-too-soon',
            `Generation ${generation.id} signs from ${generation.notBefore}, less than the JWKS cache period (1 hour) from now or already: if this deploy adds it, verifiers that cached the JWKS before may refuse its tokens until their cache expires.`,
          );
        }
      }
      return { ...generation, key };
    });
  }

  /** Completes every key's policy with its users; call once, after the roles exist. */
  allow(users: SigningKeyUsers): void {
    for (const { key } of this.versions) {
      for (const statement of keyUseStatements(users)) key.addToResourcePolicy(statement);
    }
  }

  /** `SIGNING_KEYS` of shared/config.ts: each generation's key ARN and signing window, as JSON. */
  environmentValue(): string {
    return Stack.of(this).toJsonString(
      this.versions.map(({ key, notBefore, notAfter }) => ({
        keyId: key.keyArn,
        ...(notBefore === undefined ? {} : { notBefore }),
        ...(notAfter === undefined ? {} : { notAfter }),
      })),
    );
  }
}
