import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DoorcodeStack } from '../lib/doorcode-stack.ts';
import { readInputs } from '../lib/inputs.ts';

const app = new App();
new DoorcodeStack(app, 'DoorcodeStack', {
  inputs: readInputs(app.node),
  description: 'doorcode: passwordless authentication service',
});
// Synth fails on any AwsSolutions finding that lib/ has not acknowledged with a reason.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
