/**
 * What a deployed bundle holds instead of the AWS SDK's endpoint discovery
 * (`@aws-sdk/middleware-endpoint-discovery`, aliased here by lib/bundling.ts). The DynamoDB client
 * still resolves its setting and builds an endpoint cache (mnemonist's LRU) when it is constructed,
 * but none of its commands applies the middleware that would read them: every call goes to the
 * Region's endpoint (https://docs.aws.amazon.com/general/latest/gr/ddb.html). So it is off here, and
 * no cache is built.
 */

/** Read by the client's runtime configuration; nothing ever asks it for a value. */
export const NODE_ENDPOINT_DISCOVERY_CONFIG_OPTIONS = {
  environmentVariableSelector: (): undefined => undefined,
  configFileSelector: (): undefined => undefined,
  default: undefined,
};

export function resolveEndpointDiscoveryConfig<T extends object>(input: T, _options: unknown) {
  return Object.assign(input, {
    endpointDiscoveryEnabled: async () => false,
    isClientEndpointDiscoveryEnabled: false,
  });
}
