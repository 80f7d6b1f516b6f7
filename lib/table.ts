import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { tableSchema } from '../shared/store/table.ts';

/** The single table (DESIGN §3). Key names come from shared/store/table.ts, as for the local table. */
export class SingleTable extends Construct {
  readonly table: Table;
  /** ARNs of the table's indexes, for grants that Query them. */
  readonly indexArns: readonly string[];

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: tableSchema.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableSchema.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableSchema.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      // Accounts and sessions live here: neither a stack deletion nor a stray API call may drop it.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });
    for (const index of tableSchema.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }
    this.indexArns = tableSchema.indexes.map((index) => `${this.table.tableArn}/index/${index.name}`);
  }
}
