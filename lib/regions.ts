import { Token } from 'aws-cdk-lib';
import { InputError } from './inputs.ts';

/**
 * The Regions whose CloudFormation has no SES v2 resource types (AWS::SES::EmailIdentity,
 * ConfigurationSet, ConfigurationSetEventDestination): cfn-lint 1.51's rule E3006 ("resource type
 * does not exist in the Region") lists exactly these. The service sends every sign-in code with
 * SES v2 (shared/mail/ses-mailer.ts), so it cannot run there.
 */
export const REGIONS_WITHOUT_SES_V2 = [
  'ap-east-1',
  'ap-east-2',
  'ap-southeast-4',
  'ap-southeast-6',
  'ap-southeast-7',
  'cn-north-1',
  'cn-northwest-1',
  'eu-south-2',
  'mx-central-1',
] as const;

/**
 * Refuses, at synth, a stack whose Region has no SES v2, naming the Region; a stack whose Region is
 * not known until deploy (no `env`, the default of `cdk synth`) passes.
 */
export function assertSesRegion(region: string): void {
  if (Token.isUnresolved(region)) return;
  if ((REGIONS_WITHOUT_SES_V2 as readonly string[]).includes(region)) {
    throw new InputError(
      `Region ${region} has no Amazon SES v2 in CloudFormation (AWS::SES::EmailIdentity), which sends every sign-in code: deploy to another Region (docs/deploy.md, "One Region").`,
    );
  }
}
