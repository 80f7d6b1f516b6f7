import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

export interface SenderProps {
  /** The From address of sign-in emails. */
  readonly address: string;
  /**
   * Verify the address's whole domain (DKIM records to publish in DNS) instead of the single
   * address (SES mails a confirmation link to it). Chosen when the installation has a domain.
   */
  readonly verifyDomain: boolean;
}

/** The SES identity sign-in emails are sent from. */
export class Sender extends Construct {
  readonly identity: EmailIdentity;
  readonly address: string;
  readonly verifiesDomain: boolean;

  constructor(scope: Construct, id: string, props: SenderProps) {
    super(scope, id);
    this.address = props.address;
    this.verifiesDomain = props.verifyDomain;
    const domain = props.address.slice(props.address.lastIndexOf('@') + 1);
    this.identity = new EmailIdentity(this, 'Identity', {
      identity: props.verifyDomain ? Identity.domain(domain) : Identity.email(props.address),
    });
  }
}
