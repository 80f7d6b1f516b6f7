import { randomBytes } from 'node:crypto';

/**
 * An MCP client's OAuth provider, in memory, for both official SDK generations (1.x
 * `@modelcontextprotocol/sdk` and 2.x `@modelcontextprotocol/client` declare the same provider
 * shape, with their own token and state types): a client ID metadata document URL (no
 * registration), a loopback redirect URI, PKCE and discovery state kept for the callback leg.
 * `firstScope` is the scope the client asks for while it holds no token: the SDK's default for a
 * first authorization is every scope the resource metadata lists, so a client that wants less
 * narrows its own authorization URL; later authorizations (the step-up) go out as the SDK builds them.
 */
export class MemoryOAuthProvider<Tokens extends { scope?: string }, Information, Discovery> {
  readonly clientMetadataUrl: string;
  /** The last authorization URL the SDK handed over, for the user's browser. */
  authorizationUrl: URL | undefined;
  /** The last `state` the SDK sent, to compare with the callback's. */
  sentState: string | undefined;
  private information: Information | undefined;
  private stored: Tokens | undefined;
  private verifier: string | undefined;
  private discovery: Discovery | undefined;

  constructor(
    metadataUrl: string,
    private readonly redirect: string,
    private readonly firstScope?: string,
  ) {
    this.clientMetadataUrl = metadataUrl;
  }

  get redirectUrl() {
    return this.redirect;
  }

  get clientMetadata() {
    return {
      client_name: 'E2E Agent',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.firstScope ? { scope: this.firstScope } : {}),
    };
  }

  state() {
    this.sentState = randomBytes(16).toString('base64url');
    return this.sentState;
  }

  clientInformation() {
    return this.information;
  }

  saveClientInformation(information: Information) {
    this.information = information;
  }

  tokens() {
    return this.stored;
  }

  saveTokens(tokens: Tokens) {
    this.stored = tokens;
  }

  redirectToAuthorization(authorizationUrl: URL) {
    if (this.firstScope && !this.stored) authorizationUrl.searchParams.set('scope', this.firstScope);
    this.authorizationUrl = authorizationUrl;
  }

  saveCodeVerifier(codeVerifier: string) {
    this.verifier = codeVerifier;
  }

  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }

  saveDiscoveryState(state: Discovery) {
    this.discovery = state;
  }

  discoveryState() {
    return this.discovery;
  }
}
