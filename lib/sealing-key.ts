import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyDocument } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { administerWithoutUse, allowRoles, denyAllBut } from './key-policy.ts';
import { KEY_ADMIN_ACTIONS } from './signing-key.ts';

/**
 * Administration of the sealing key: the signing key's list (manage, never use: no Encrypt, no
 * Decrypt, no CreateGrant) and its automatic rotation, which CloudFormation turns on.
 */
const SEALING_KEY_ADMIN_ACTIONS = [
  ...KEY_ADMIN_ACTIONS,
  'kms:EnableKeyRotation',
  'kms:DisableKeyRotation',
  'kms:GetKeyRotationStatus',
  'kms:ListKeyRotations',
] as const;

/**
 * The one encryption context key shared/crypto/kms-secret-sealer.ts sends. Each use must name an
 * application (`app_…`) and nothing else, so a ciphertext is bound to exactly one application.
 */
const applicationContext = {
  StringLike: { 'kms:EncryptionContext:applicationId': 'app_*' },
  'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['applicationId'] },
};

/** The roles that use the key, by ARN (lib/doorcode-stack.ts derives them from the routes' `seal`). */
export interface SealingKeyUsers {
  readonly encryptRoleArns: readonly string[];
  readonly decryptRoleArns: readonly string[];
}

/** Allow `action` to `roles` with an application's context; deny it to everyone else, whatever else says. */
const useStatements = (action: 'kms:Encrypt' | 'kms:Decrypt', sid: string, roles: readonly string[]) => [
  ...(roles.length > 0 ? [allowRoles(`${sid}WithTheServiceRoles`, action, roles, applicationContext)] : []),
  denyAllBut(`Deny${sid}ToEveryoneElse`, action, roles),
];

export interface SealingKeyProps {
  readonly serviceName: string;
}

/**
 * The KMS symmetric key that seals application owners' OAuth client secrets (docs/security.md,
 * "Provider client secrets"). Rotated yearly by KMS (old key material keeps decrypting), retained (a
 * deleted key loses every stored secret), with an explicit policy: administrators manage it, only the
 * configuration write roles encrypt and only the social callback's role decrypts, each only with an
 * `applicationId` context.
 * No alias: the functions get its ARN, and the `SealingKeyArn` output names it for operators (an
 * alias would be one more stack resource, test/infra/resource-budget.test.ts).
 */
export class SealingKey extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string, props: SealingKeyProps) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: `${props.serviceName}: seals application owners' OAuth client secrets`,
      enableKeyRotation: true,
      policy: new PolicyDocument({
        statements: [administerWithoutUse(SEALING_KEY_ADMIN_ACTIONS)],
      }),
      removalPolicy: RemovalPolicy.RETAIN,
      pendingWindow: Duration.days(30),
    });
  }

  /** Completes the key policy with its users; call once, after the roles exist. */
  allow(users: SealingKeyUsers): void {
    for (const statement of [
      ...useStatements('kms:Encrypt', 'Encrypt', users.encryptRoleArns),
      ...useStatements('kms:Decrypt', 'Decrypt', users.decryptRoleArns),
    ]) {
      this.key.addToResourcePolicy(statement);
    }
  }
}
