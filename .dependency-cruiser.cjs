/**
 * The layering CONTRIBUTING.md describes ("Layout and layering"), checked on every `npm test` (`npm run deps`).
 * Every file of shared/ belongs to one layer, and imports only its own layer and those below it:
 *
 *   transport    shared/http, shared/local, shared/route-table, shared/openapi, the route table files
 *   protocol     shared/oauth, shared/mcp, shared/social, shared/dashboard
 *   contracts    shared/contracts
 *   domain       shared/users > sessions > sign-in > tenancy > identity; rate-limit, status
 *   adapters     shared/store, shared/crypto, shared/mail, shared/net, shared/metrics  (-> @aws-sdk/*)
 *   kernel       the top-level helpers of shared/ (errors, config, clock, random, log, ...)
 *
 * The composition root (shared/deps.ts, shared/undeclared.ts, shared/adapters/) stands beside them:
 * it builds the ports, and every layer may import shared/deps.ts for the `Deps` type. A file of
 * shared/ in no layer fails the check. No two folders of shared/ import each other, directly or
 * round a longer cycle (`no-folder-cycles`), so the domain folders keep one order.
 *
 * Outside shared/: `functions/` holds the handlers, `lib/` is CDK only, `bin/` holds the entry points,
 * `test/` and `bench/` sit outside and may use anything but each other in the bench's direction;
 * `fixtures/` holds the loopback hosts and the call counter both use, and imports neither.
 *
 * TypeScript imports carry their `.ts` extension (allowImportingTsExtensions); `tsConfig` makes the
 * resolver read tsconfig.json, and the swc parser (TypeScript 7 has no compiler API for
 * dependency-cruiser) sees type-only imports too, which count like any other import here.
 */

/** Transport: the handler chain, local mode, the route table (its entries' shape included) and the OpenAPI document. */
const TRANSPORT =
  '^shared/((http|local|route-table|openapi)/|(routes|route-spec|route-access|auth-modes)[.]ts$)';
/**
 * Protocol: OAuth 2.1, MCP, social sign-in and the owner dashboard's files, each its own flows and pages over the domain. They sit
 * above the domain, which never imports them, and below the transport that serves them.
 */
const PROTOCOL = '^shared/(oauth|mcp|social|dashboard)/';
/**
 * Contracts: the zod schemas of every route's requests and answers. The route table and OpenAPI
 * (transport) and the MCP tools and OAuth answers (protocol) read them, and they reuse the domain's
 * input schemas (an address, a name, an audit action), so they sit right above the domain, which
 * only ever returns plain values for a contract to check.
 */
const CONTRACTS = '^shared/contracts/';
/**
 * The domain folders of shared/: business rules, no transport, no AWS SDK. Within it, users (profile
 * changes, images, the application users managers see) > sessions (callers, session management) >
 * sign-in > tenancy > identity (the User, addresses, names, the session token and record): each
 * imports only those after it, and rate-limit and status no other domain folder.
 */
const DOMAIN = '^shared/(users|sessions|sign-in|tenancy|identity|rate-limit|status)/';
/**
 * The adapters: the ports to what is outside the process. store (DynamoDB), crypto (KMS, Secrets
 * Manager), mail (SES); net, the SSRF-safe request and the fetch of a metadata document, because it is
 * the one way out to the open internet and knows nothing of OAuth; metrics, because it is the port
 * to CloudWatch (EMF lines in the log) that the handler chain, the rate limits and the KMS signer count
 * through.
 */
const ADAPTERS = '^shared/(store|crypto|mail|net|metrics)/';
/** The kernel: small helpers every layer uses; they import nothing of shared/ but each other. */
const KERNEL =
  '^shared/(clock|conditional-get|config|errors|html-escape|html-page|json-schema|log|original-stack|random|service-url|user-agent|validation)[.]ts$';
/** The composition root: the ports it builds, the stand-ins of undeclared ports and of absent adapters. */
const COMPOSITION = '^shared/((deps|undeclared)[.]ts$|adapters/)';
const LAYERS = [TRANSPORT, PROTOCOL, CONTRACTS, DOMAIN, ADAPTERS, KERNEL, COMPOSITION];
/** Local mode starts DynamoDB Local and creates its table: infrastructure of `npm start`, as lib/ is on AWS. */
const LOCAL_MODE = '^shared/local/';
const COMPOSITION_ROOT = '^shared/deps[.]ts$';
const AWS_SDK = '^node_modules/@aws-sdk/';
/** What a deployed bundle holds instead of the SDK's default credential chain (lib/bundling.ts): the SDK's own environment provider. */
const SDK_CREDENTIALS = '^shared/adapters/env-credentials[.]ts$';

/** One forbidden import: the files `from`, importing `to`, fail the check. */
function rule(name, comment, from, to) {
  return { name, comment, severity: 'error', from, to };
}

module.exports = {
  forbidden: [
    rule(
      'layer-of-every-file',
      'Every file of shared/ belongs to a layer (the header above): a new folder or top-level file is placed in one.',
      { path: '^shared/', pathNot: LAYERS },
      {},
    ),
    rule(
      'layer-of-every-imported-file',
      'The same seen from the importing side, so an unplaced file that imports nothing is caught too.',
      {},
      { path: '^shared/', pathNot: LAYERS },
    ),
    rule(
      'transport-on-top',
      'Nothing below the transport imports it: protocol, contracts, domain, adapters and kernel are called, never call up.',
      { path: [PROTOCOL, CONTRACTS, DOMAIN, ADAPTERS, KERNEL] },
      { path: TRANSPORT },
    ),
    rule(
      'protocol-above-domain',
      'OAuth, MCP and social sign-in use the domain; the domain, the contracts, the adapters and the kernel never import them.',
      { path: [CONTRACTS, DOMAIN, ADAPTERS, KERNEL] },
      { path: PROTOCOL },
    ),
    rule(
      'contracts-above-domain',
      'The domain returns plain values; it never imports the route contracts that check them.',
      { path: [DOMAIN, ADAPTERS, KERNEL] },
      { path: CONTRACTS },
    ),
    rule(
      'adapters-below-domain',
      'The store, crypto, mail, net and metrics adapters sit below the domain: they never import a domain module. The repositories define the records they store and return (shared/store/), and a rule such as the 5-attempt cap comes in as an argument.',
      { path: [ADAPTERS, KERNEL] },
      { path: DOMAIN },
    ),
    rule(
      'store-records-only',
      'Outside shared/store/ an item is only ever a typed record: nothing reads raw items (batch.ts, items.ts) or decodes them (decode.ts); a batch read goes through reads.ts `readRecords`.',
      { path: '^shared/', pathNot: '^shared/store/' },
      { path: '^shared/store/(batch|items|decode)[.]ts$' },
    ),
    {
      name: 'no-folder-cycles',
      comment:
        'No two folders of shared/ import each other, directly or round a longer cycle: what two folders both need moves down into a third (as shared/identity/ did for the domain).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^shared/' },
      to: { path: '^shared/', circular: true },
    },
    rule(
      'kernel-at-the-bottom',
      'The kernel helpers import nothing of shared/ but each other.',
      { path: KERNEL },
      { path: '^shared/', pathNot: KERNEL },
    ),
    rule(
      'composition-beside-layers',
      'The layers import the composition root only for the `Deps` type (shared/deps.ts); the stand-ins are for it and for lib/bundling.ts alone.',
      { path: [TRANSPORT, PROTOCOL, CONTRACTS, DOMAIN, ADAPTERS, KERNEL] },
      { path: COMPOSITION, pathNot: COMPOSITION_ROOT },
    ),
    rule(
      'aws-sdk-only-in-adapters',
      "Only the adapters, shared/local/, shared/deps.ts and the SDK's credential chain of a deployed bundle (lib/bundling.ts) import @aws-sdk/*; the rest of shared/ names its conditions through them.",
      { path: '^shared/', pathNot: [ADAPTERS, LOCAL_MODE, COMPOSITION_ROOT, SDK_CREDENTIALS] },
      { path: AWS_SDK },
    ),
    rule(
      'shared-not-outer-layers',
      'shared/ never imports lib/, bin/, functions/, test/ or bench/.',
      { path: '^shared/' },
      { path: '^(lib|bin|functions|test|bench)/' },
    ),
    rule(
      'lib-not-handlers-or-local',
      'lib/ (CDK) reads the route table; it never imports a handler in functions/ or local mode in shared/local.',
      { path: '^lib/' },
      { path: '^(functions|shared/local)/' },
    ),
    rule(
      'functions-thin',
      'A handler calls one domain function: it never imports shared/store/ or @aws-sdk/* itself.',
      { path: '^functions/' },
      { path: `^shared/store/|${AWS_SDK}` },
    ),
    rule(
      'sdk-browser-only',
      'The browser SDK (sdk/src) imports only its own files: no Node built-in (node:*), no package (it ships with no dependencies), nothing of the service.',
      { path: '^sdk/src/' },
      { pathNot: '^sdk/src/' },
    ),
    rule(
      'sdk-not-service',
      'The service, its tests and the bench may test or measure the SDK, but the service itself never imports it.',
      { path: '^(shared|functions|lib|bin)/' },
      { path: '^sdk/' },
    ),
    rule(
      'verifier-web-platform-only',
      'verifier/src/ runs in Node 20+ and in edge runtimes: Web Crypto and fetch only, never a node: builtin (docs/verifier.md).',
      { path: '^verifier/src/' },
      { dependencyTypes: ['core'] },
    ),
    rule(
      'verifier-dependencies',
      'The verifier package depends on jose only, with express and hono as optional peers: nothing else from node_modules.',
      { path: '^verifier/src/' },
      { path: '^node_modules/', pathNot: '^node_modules/(jose|express|@types/express|hono)/' },
    ),
    rule(
      'verifier-self-contained',
      'The verifier is its own package: it never imports the service (shared/, functions/, lib/, bin/) or test/ and bench/.',
      { path: '^verifier/' },
      { path: '^(shared|functions|lib|bin|test|bench)/' },
    ),
    rule('bench-not-test', 'bench/ never imports test/.', { path: '^bench/' }, { path: '^test/' }),
    rule(
      'fixtures-below-tests-and-bench',
      'fixtures/ serves test/ and bench/: it imports neither.',
      { path: '^fixtures/' },
      { path: '^(test|bench)/' },
    ),
    rule('no-circular', 'No import cycles.', { path: '.' }, { circular: true }),
    rule(
      'resolvable',
      'Every import resolves (a rule cannot see what the resolver could not find).',
      { path: '.' },
      { couldNotResolve: true },
    ),
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: '^node_modules/' },
    // dashboard/src is TSX, which the swc parser here does not read: test/unit/dashboard-build.test.ts
    // checks what its bundle imports from the build's own metafile instead.
    exclude: {
      path: '^(cdk[.]out|[.]data|bench/[.]out|verifier/dist|sdk/dist|dashboard/src|dashboard/dist)/',
    },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'types', 'default'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
