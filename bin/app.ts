import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DoorcodeStack } from '../lib/doorcode-stack.ts';
import { type DoorcodeInputs, InputError, readInputs } from '../lib/inputs.ts';
import { assertSesRegion } from '../lib/regions.ts';

const app = new App();

/** A wrong context value is the deployer's mistake, not a bug: its message alone, no stack trace. */
function inputsOrExit(): DoorcodeInputs {
  try {
    return readInputs(app.node);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

const inputs = inputsOrExit();
// `doorcode` -> DoorcodeStack, `acme-auth` -> AcmeAuthStack: two installations can share an account.
const stackId = `${inputs.serviceName
  .split('-')
  .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
  .join('')}Stack`;
try {
  // The stack names no Region, so `cdk deploy` deploys it to the CLI's default one, which the CLI
  // passes here: refuse it now if it has no SES v2, rather than halfway through the deploy.
  const region = process.env.CDK_DEFAULT_REGION;
  if (region) assertSesRegion(region);
  new DoorcodeStack(app, stackId, {
    inputs,
    description: 'doorcode: passwordless authentication service',
  });
} catch (error) {
  // A Region without SES v2 (lib/regions.ts) is the deployer's choice too: its message alone.
  if (!(error instanceof InputError)) throw error;
  console.error(error.message);
  process.exit(1);
}
// Synth fails on any AwsSolutions finding that lib/ has not acknowledged with a reason.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
