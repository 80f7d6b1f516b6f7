import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { AccessProfile } from '../shared/routes.ts';
import { type ItemFamily, keyFamilies } from '../shared/store/keys.ts';

/** Item reads. TransactGetItems is authorized as GetItem; ConditionCheckItem backs transaction conditions. */
const TABLE_READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
] as const;

/** Item writes. TransactWriteItems is authorized per item as these actions. */
const TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
] as const;

/** The resources a route's access can refer to. */
export interface GrantTargets {
  readonly tableArn: string;
  readonly indexArns: readonly string[];
  readonly senderIdentityArn: string;
  /** `arn:…:ses:<region>:<account>:identity/*`: in the SES sandbox each recipient's identity is authorized too. */
  readonly recipientIdentitiesArn: string;
  readonly senderAddress: string;
  /** The SES configuration set every send names: SendEmail is authorized against it as well. */
  readonly configurationSetArn: string;
  /** The Secrets Manager secret holding the sign-in code-hash key. */
  readonly codeKeySecretArn: string;
}

/**
 * The partition-key patterns of `items` on the table (`pk`) or on the indexes (`gsi1pk`, `gsi2pk`),
 * sorted and without repeats: the values of a `dynamodb:LeadingKeys` condition.
 */
export function leadingKeyPatterns(items: readonly ItemFamily[], partition: 'table' | 'index'): string[] {
  return [
    ...new Set(
      items
        .filter((item) => keyFamilies[item].partition === partition)
        .map((item) => keyFamilies[item].pattern),
    ),
  ].sort();
}

/**
 * Only partitions whose key matches one of `patterns`. IAM evaluates `dynamodb:LeadingKeys` per
 * item (batches and transactions included) and, for a Query on an index, on the index's partition
 * key. Every action granted here names a partition, so the set is never empty (`ForAllValues`
 * would let an empty one through).
 */
const leadingKeys = (patterns: readonly string[]) => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...patterns] },
});

/**
 * The IAM statements a route's function gets: derived from its declared access and item families
 * (its entry's `access`; for a shared role, the families of all its routes) and nothing else, with
 * explicit actions (no `grant*` helper that adds DescribeKey, Scan and the like).
 */
export function accessStatements(
  access: AccessProfile,
  targets: GrantTargets,
  items: readonly ItemFamily[] = [],
): PolicyStatement[] {
  const statements: PolicyStatement[] = [];
  const tableKeys = leadingKeyPatterns(items, 'table');
  const indexKeys = leadingKeyPatterns(items, 'index');
  if (access.table && tableKeys.length > 0) {
    statements.push(
      new PolicyStatement({
        actions: [...TABLE_READ_ACTIONS],
        resources: [targets.tableArn],
        conditions: leadingKeys(tableKeys),
      }),
    );
  }
  if (access.table && indexKeys.length > 0) {
    statements.push(
      new PolicyStatement({
        // The indexes answer Query only; their partitions are the index families' (`ORGAPPS#*` ...).
        actions: ['dynamodb:Query'],
        resources: [...targets.indexArns],
        conditions: leadingKeys(indexKeys),
      }),
    );
  }
  // The audit trails are append-only (docs/security.md): their family is written only by PutItem
  // (every entry is a Put conditioned on a new key), never updated or deleted by any role.
  const trailKeys = leadingKeyPatterns(
    items.filter((item) => item === 'audit'),
    'table',
  );
  const changeableKeys = tableKeys.filter((pattern) => !trailKeys.includes(pattern));
  if (access.table === 'readwrite' && changeableKeys.length > 0) {
    statements.push(
      new PolicyStatement({
        actions: [...TABLE_WRITE_ACTIONS],
        resources: [targets.tableArn],
        conditions: leadingKeys(changeableKeys),
      }),
    );
  }
  if (access.table === 'readwrite' && trailKeys.length > 0) {
    statements.push(
      new PolicyStatement({
        actions: ['dynamodb:PutItem'],
        resources: [targets.tableArn],
        conditions: leadingKeys(trailKeys),
      }),
    );
  }
  // kms:Sign and kms:GetPublicKey are not here: the signing keys' policies grant them to the roles
  // (lib/signing-key.ts), so the key policy alone says who may sign, and roles need not refer to keys.
  // The same for kms:Encrypt and kms:Decrypt of `seal` (lib/sealing-key.ts).
  if (access.mail) {
    statements.push(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        // While the account is in the SES sandbox, SendEmail is also authorized against every
        // (verified) recipient's identity; the From-address condition still pins the sender.
        resources: [targets.senderIdentityArn, targets.recipientIdentitiesArn, targets.configurationSetArn],
        conditions: { StringEquals: { 'ses:FromAddress': targets.senderAddress } },
      }),
      // start asks whether the recipient is on the account's suppression list before it sends
      // (shared/sign-in/start.ts): an account-level action that takes no resource.
      new PolicyStatement({ actions: ['ses:GetSuppressedDestination'], resources: ['*'] }),
    );
  }
  if (access.codeKey) {
    statements.push(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [targets.codeKeySecretArn],
      }),
    );
  }
  return statements;
}
