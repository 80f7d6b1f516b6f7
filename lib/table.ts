import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  type ITable,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { tableSchema } from '../shared/store/table.ts';

export interface SingleTableProps {
  /**
   * An existing table to use instead of creating one (docs/operations.md, "Restore the table to a
   * point in time"): the stack then owns no table, and grants and alarms name this one and its indexes.
   */
  readonly existingTableName?: string;
  /** The stream of the existing table (NEW_AND_OLD_IMAGES), which the statistics aggregator reads. */
  readonly existingTableStreamArn?: string;
}

/** The single table (docs/data-model.md). Key names come from shared/store/table.ts, as for the local table. */
export class SingleTable extends Construct {
  readonly table: ITable;
  /** ARNs of the table's indexes, for grants that Query them. */
  readonly indexArns: readonly string[];

  constructor(scope: Construct, id: string, props: SingleTableProps = {}) {
    super(scope, id);
    if (props.existingTableName && !props.existingTableStreamArn) {
      // lib/inputs.ts refuses it first; a construct used on its own says so too.
      throw new Error(
        `the existing table ${props.existingTableName} needs its stream's ARN (tableStreamArn)`,
      );
    }
    this.table = props.existingTableName
      ? Table.fromTableAttributes(this, 'Table', {
          tableName: props.existingTableName,
          ...(props.existingTableStreamArn ? { tableStreamArn: props.existingTableStreamArn } : {}),
          globalIndexes: tableSchema.indexes.map((index) => index.name),
        })
      : this.createTable();
    this.indexArns = tableSchema.indexes.map((index) => `${this.table.tableArn}/index/${index.name}`);
  }

  private createTable(): Table {
    const table = new Table(this, 'Table', {
      partitionKey: { name: tableSchema.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableSchema.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableSchema.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // What the statistics aggregator counts (docs/data-model.md, Statistics): both images, so a
      // deletion says what it uncounts and a refresh the minute it leaves.
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      encryption: TableEncryption.AWS_MANAGED,
      // Accounts and sessions live here: neither a stack deletion nor a stray API call may drop it.
      // Retain, not RetainExceptOnCreate as the stack's other kept resources (lib/fail-safe.ts): the
      // rollback of a failed first create could not delete a deletion-protected table (the stack
      // would stop in ROLLBACK_FAILED), while the empty table it keeps, under a generated name,
      // blocks no retry (docs/operations.md, "A failed first deploy").
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });
    for (const index of tableSchema.indexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }
    return table;
  }
}
