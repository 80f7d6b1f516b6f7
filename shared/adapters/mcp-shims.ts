/**
 * What a deployed bundle holds instead of the MCP SDK's runtime shims (`@modelcontextprotocol/server/_shims`,
 * aliased here by lib/bundling.ts). On Node the SDK's shim makes Ajv (about 150 KiB) the default
 * JSON Schema validator, which it constructs only for a server given no validator of its own;
 * shared/mcp/server.ts gives its servers one (docs/mcp.md, Tools: arguments are checked by the tools'
 * own schemas). A construction means a server without it entered the bundle.
 */
export { default as process } from 'node:process';

export class DefaultJsonSchemaValidator {
  constructor() {
    throw new Error(
      'This bundle holds no default JSON Schema validator: give the MCP server one (shared/mcp/server.ts)',
    );
  }
}
