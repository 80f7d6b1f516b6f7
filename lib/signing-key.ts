import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

/** The one algorithm KmsSigner uses; the Sign grant is conditioned on it. */
export const SIGNING_ALGORITHM = 'RSASSA_PKCS1_V1_5_SHA_256';

export interface SigningKeyProps {
  readonly serviceName: string;
}

/** The RSA key that signs session tokens (RS256). Its private half never leaves KMS. */
export class SigningKey extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string, props: SigningKeyProps) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: `${props.serviceName}: signs session tokens (RS256)`,
      keySpec: KeySpec.RSA_2048,
      keyUsage: KeyUsage.SIGN_VERIFY,
      alias: `alias/${props.serviceName}-signing`,
      // Tokens signed by this key stay verifiable only while it exists.
      removalPolicy: RemovalPolicy.RETAIN,
      pendingWindow: Duration.days(30),
    });
  }
}
