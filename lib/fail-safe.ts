import { CfnDeletionPolicy, CfnResource, type IAspect, RemovalPolicy } from 'aws-cdk-lib';
import { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import type { IConstruct } from 'constructs';

/**
 * Every resource the stack keeps (`DeletionPolicy: Retain`) becomes RetainExceptOnCreate: kept on
 * update, replacement and stack deletion, but deleted by the rollback of the deploy that created it,
 * so a failed first deploy leaves nothing behind that would make the retry fail (a name taken, an
 * identity that exists) or bill on its own. It catches the resources that CDK retains by default (the
 * log groups) as well as those lib/ retains on purpose. A deletion-protected table keeps Retain: its
 * rollback could not delete it (lib/table.ts). docs/operations.md, "A failed first deploy".
 */
export class RetainExceptOnCreate implements IAspect {
  visit(node: IConstruct): void {
    if (!(node instanceof CfnResource)) return;
    if (node.cfnOptions.deletionPolicy !== CfnDeletionPolicy.RETAIN) return;
    if (node instanceof CfnTable && node.deletionProtectionEnabled) return;
    node.applyRemovalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
  }
}
