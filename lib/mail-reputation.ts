import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import {
  ConfigurationSet,
  ConfigurationSetEventDestination,
  EmailSendingEvent,
  EventDestination,
  SuppressionReasons,
} from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

export interface MailReputationProps {
  readonly serviceName: string;
}

/**
 * What keeps the sending account's reputation: one SES configuration set that every sign-in email
 * names (shared/mail/ses-mailer.ts), whose suppression list takes a hard-bounced or complaining
 * address out of use, and whose bounce and complaint events go to an SNS topic of the stack that
 * an operator subscribes to (docs/deploy.md, "Mail: the sender, SES and the hourly cap").
 */
export class MailReputation extends Construct {
  readonly configurationSet: ConfigurationSet;
  /** `arn:…:ses:<region>:<account>:configuration-set/<name>`: SendEmail is authorized against it too. */
  readonly configurationSetArn: string;
  readonly events: Topic;

  constructor(scope: Construct, id: string, props: MailReputationProps) {
    super(scope, id);
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      // SES keeps sending to an address on its account-level list only if the set says otherwise:
      // this set adds hard bounces and complaints to the account's list itself, whatever the
      // account's own setting (accounts older than November 2019 have none).
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      reputationMetrics: true,
      sendingEnabled: true,
    });
    this.configurationSetArn = Stack.of(this).formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSet.configurationSetName,
    });

    // The events name recipients: the topic is encrypted with a key of the stack, which SES may use
    // (the AWS managed alias/aws/sns key cannot grant SES).
    const key = new Key(this, 'EventsKey', {
      description: `${props.serviceName}: encrypts SES bounce and complaint events`,
      enableKeyRotation: true,
      // It guards messages in flight, never data at rest: nothing needs it once the topic is gone.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    key.addToResourcePolicy(
      new PolicyStatement({
        actions: ['kms:GenerateDataKey*', 'kms:Decrypt'],
        principals: [new ServicePrincipal('ses.amazonaws.com')],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    );
    this.events = new Topic(this, 'Events', {
      displayName: `${props.serviceName} SES bounces and complaints`,
      masterKey: key,
      enforceSSL: true,
    });
    new ConfigurationSetEventDestination(this, 'BouncesAndComplaints', {
      configurationSet: this.configurationSet,
      destination: EventDestination.snsTopic(this.events),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT, EmailSendingEvent.REJECT],
    });
  }
}
