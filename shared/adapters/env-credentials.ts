/**
 * The AWS SDK's credential chain in a deployed bundle: lib/bundling.ts aliases
 * `@aws-sdk/credential-provider-node` here. Lambda gives every function its execution role's
 * credentials in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN
 * (https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime),
 * so the rest of the default chain (SSO, shared INI files, credential processes, web identity,
 * container and instance metadata, and the STS and SSO clients they load) would only add code to
 * every cold start. Unbundled code (npm start, tests) keeps the SDK's whole chain.
 */

/** What the SDK's clients call (`credentialDefaultProvider` of their runtime config): the environment only. */
export { fromEnv as defaultProvider } from '@aws-sdk/credential-provider-env';
