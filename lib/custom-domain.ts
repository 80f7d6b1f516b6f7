import {
  ApiMapping,
  DomainName,
  type IHttpApi,
  type IHttpStage,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { Construct } from 'constructs';

export interface CustomDomainProps {
  readonly domain: string;
  readonly certificateArn: string;
  readonly api: IHttpApi;
  readonly stage: IHttpStage;
}

/** Serves the API at `https://<domain>`; DNS (a CNAME to `target`) stays with the owner of the zone. */
export class CustomDomain extends Construct {
  /** The host name the domain's CNAME (or alias) record must point to. */
  readonly target: string;

  constructor(scope: Construct, id: string, props: CustomDomainProps) {
    super(scope, id);
    const domainName = new DomainName(this, 'DomainName', {
      domainName: props.domain,
      certificate: Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn),
      securityPolicy: SecurityPolicy.TLS_1_2,
    });
    new ApiMapping(this, 'Mapping', { api: props.api, domainName, stage: props.stage });
    this.target = domainName.regionalDomainName;
  }
}
