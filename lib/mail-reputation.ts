import { Stack } from 'aws-cdk-lib';
import {
  ConfigurationSet,
  ConfigurationSetEventDestination,
  EmailSendingEvent,
  EventDestination,
  SuppressionReasons,
} from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { SealingKey } from './sealing-key.ts';

export interface MailReputationProps {
  readonly serviceName: string;
  /** The stack's symmetric key, which encrypts the events topic too (lib/sealing-key.ts). */
  readonly encryption: SealingKey;
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

    // The events name recipients: the topic is encrypted, with the sealing key, which lets SES use it
    // for SNS topics only (lib/sealing-key.ts). The AWS managed alias/aws/sns key cannot grant SES,
    // and a key for this topic alone would cost $1.00 a month (docs/operations.md, "What it costs idle").
    props.encryption.allowTopicPublisher('ses.amazonaws.com');
    this.events = new Topic(this, 'Events', {
      displayName: `${props.serviceName} SES bounces and complaints`,
      masterKey: props.encryption.key,
      enforceSSL: true,
    });
    new ConfigurationSetEventDestination(this, 'BouncesAndComplaints', {
      configurationSet: this.configurationSet,
      destination: EventDestination.snsTopic(this.events),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT, EmailSendingEvent.REJECT],
    });
  }
}
