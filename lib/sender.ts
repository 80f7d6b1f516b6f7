import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

/** `create`: the stack creates the SES identity; `existing`: it is already in the account. */
export type SenderIdentityMode = 'create' | 'existing';

export interface SenderProps {
  /** The From address of sign-in emails. */
  readonly address: string;
  /**
   * Verify the address's whole domain (DKIM records to publish in DNS) instead of the single
   * address (SES mails a confirmation link to it). Chosen when the installation has a domain.
   */
  readonly verifyDomain: boolean;
  readonly mode: SenderIdentityMode;
}

/**
 * The SES identity sign-in emails are sent from. It is about mail only: SES verifies that the
 * sender may use the address or domain (DKIM records or a confirmation link). The API's custom
 * domain (lib/custom-domain.ts) is a separate thing: an ACM certificate and a CNAME for HTTPS.
 */
export class Sender extends Construct {
  /** The identity the stack created; undefined in `existing` mode. */
  readonly identity?: EmailIdentity;
  /** The identity's name: the domain, or the address. */
  readonly identityName: string;
  /** `arn:…:ses:<region>:<account>:identity/<name>`, created or existing: the SendEmail grant names it. */
  readonly identityArn: string;
  readonly address: string;
  readonly verifiesDomain: boolean;

  constructor(scope: Construct, id: string, props: SenderProps) {
    super(scope, id);
    this.address = props.address;
    this.verifiesDomain = props.verifyDomain;
    const domain = props.address.slice(props.address.lastIndexOf('@') + 1);
    this.identityName = props.verifyDomain ? domain : props.address;
    this.identityArn = Stack.of(this).formatArn({
      service: 'ses',
      resource: 'identity',
      resourceName: this.identityName,
    });
    if (props.mode === 'existing') return;
    this.identity = new EmailIdentity(this, 'Identity', {
      identity: props.verifyDomain ? Identity.domain(domain) : Identity.email(props.address),
    });
    // Its verification (DKIM records in DNS, or a confirmed link) outlives the stack: a redeploy
    // after `cdk destroy` finds it and uses it with -c senderIdentity=existing. Not after a failed
    // first create, though: kept then, it would make the retry fail (the identity exists).
    this.identity.applyRemovalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
  }
}
