import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyDocument, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
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

/**
 * Allow `action` to `roles` with an application's context; deny it to everyone else, whatever else
 * says, but for `unless` (a request it exempts is still refused unless a statement allows it).
 */
const useStatements = (
  action: 'kms:Encrypt' | 'kms:Decrypt',
  sid: string,
  roles: readonly string[],
  unless: Record<string, Record<string, unknown>> = {},
) => [
  ...(roles.length > 0 ? [allowRoles(`${sid}WithTheServiceRoles`, action, roles, applicationContext)] : []),
  denyAllBut(`Deny${sid}ToEveryoneElse`, action, roles, unless),
];

/** The encryption context key SNS sends to KMS for an encrypted topic: the topic's ARN. */
const SNS_TOPIC_CONTEXT = 'kms:EncryptionContext:aws:sns:topicArn';

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
      // A failed first create deletes it (nothing was sealed yet); afterwards it is kept
      // (docs/operations.md, "Teardown").
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      pendingWindow: Duration.days(30),
    });
  }

  readonly #topicPublishers: string[] = [];
  #allowed = false;

  /**
   * Lets the AWS service `publisher` (`ses.amazonaws.com`) publish to SNS topics of this account
   * encrypted with this key: SNS calls GenerateDataKey and Decrypt for it, with the topic's ARN as
   * encryption context (https://docs.aws.amazon.com/sns/latest/dg/sns-key-management.html). Only
   * with that context, so never on a sealed client secret, whose context is its `applicationId`.
   * An AWS managed key (alias/aws/sns) cannot grant a service principal; a key of its own would
   * cost $1.00 a month more (docs/operations.md, "What it costs idle").
   */
  allowTopicPublisher(publisher: string): void {
    if (this.#allowed) throw new Error('allowTopicPublisher must come before allow()');
    this.#topicPublishers.push(publisher);
  }

  /** Completes the key policy with its users; call once, after the roles exist. */
  allow(users: SealingKeyUsers): void {
    this.#allowed = true;
    const stack = Stack.of(this);
    const topicsOfThisAccount = stack.formatArn({ service: 'sns', resource: '*' });
    const snsContext = { StringLike: { [SNS_TOPIC_CONTEXT]: topicsOfThisAccount } };
    const publishers =
      this.#topicPublishers.length > 0
        ? [
            new PolicyStatement({
              sid: 'EncryptTopicsForTheirPublishers',
              principals: this.#topicPublishers.map((service) => new ServicePrincipal(service)),
              actions: ['kms:GenerateDataKey*', 'kms:Decrypt'],
              resources: ['*'],
              conditions: { StringEquals: { 'aws:SourceAccount': stack.account }, ...snsContext },
            }),
          ]
        : [];
    for (const statement of [
      ...useStatements('kms:Encrypt', 'Encrypt', users.encryptRoleArns),
      // The Deny spares a Decrypt for an SNS topic of this account (a publisher above), and only that.
      ...useStatements(
        'kms:Decrypt',
        'Decrypt',
        users.decryptRoleArns,
        publishers.length > 0 ? { StringNotLike: { [SNS_TOPIC_CONTEXT]: topicsOfThisAccount } } : {},
      ),
      ...publishers,
    ]) {
      this.key.addToResourcePolicy(statement);
    }
  }
}
