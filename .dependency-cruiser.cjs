/**
 * The layering the README's Architecture section describes, checked on every `npm test` (`npm run deps`):
 *
 *   functions/  ->  shared/ domain  ->  shared/store, shared/crypto, shared/mail  (-> @aws-sdk/*)
 *
 * `lib/` is CDK only, `bin/` holds the entry points, `test/` and `bench/` sit outside and may use
 * anything but each other in the bench's direction; `fixtures/` holds the loopback hosts and the call
 * counter both use, and imports neither.
 *
 * TypeScript imports carry their `.ts` extension (allowImportingTsExtensions); `tsConfig` makes the
 * resolver read tsconfig.json, and the swc parser (TypeScript 7 has no compiler API for
 * dependency-cruiser) sees type-only imports too, which count like any other import here.
 */

/** The domain folders of shared/: business rules, no transport, no AWS SDK. */
const DOMAIN = '^shared/(sign-in|sessions|users|tenancy|rate-limit|status)/';
/** The adapters: with local mode, the only code that may talk to AWS through the SDK. */
const ADAPTERS = '^shared/(store|crypto|mail)/';
/**
 * The domain modules that define the records the repositories store (request, session, user,
 * image). The swc parser cannot tell a type-only import, so these are named instead.
 */
const RECORD_MODULES = '^shared/(sign-in/request|sessions/session|users/(image|user)|oauth/model)[.]ts$';
/** Local mode starts DynamoDB Local and creates its table: infrastructure of `npm start`, as lib/ is on AWS. */
const LOCAL_MODE = '^shared/local/';
const COMPOSITION_ROOT = '^shared/deps[.]ts$';
const AWS_SDK = '^node_modules/@aws-sdk/';

/** One forbidden import: the files `from`, importing `to`, fail the check. */
function rule(name, comment, from, to) {
  return { name, comment, severity: 'error', from, to };
}

module.exports = {
  forbidden: [
    rule(
      'domain-not-transport-or-cdk',
      'A domain folder takes a typed caller and deps: it never imports shared/http, shared/local or lib/.',
      { path: DOMAIN },
      { path: '^(shared/http|shared/local|lib)/' },
    ),
    rule(
      'aws-sdk-only-in-adapters',
      'Only shared/store/, shared/crypto/, shared/mail/, shared/local/ and shared/deps.ts import @aws-sdk/*; the rest of shared/ names its conditions through them.',
      { path: '^shared/', pathNot: [ADAPTERS, LOCAL_MODE, COMPOSITION_ROOT] },
      { path: AWS_SDK },
    ),
    rule(
      'adapters-not-domain',
      'The store, crypto and mail adapters sit below the domain: they never import shared/http, shared/local or a domain module, except the modules that define the records a repository stores and returns (for their types; a rule such as the 5-attempt cap comes in as an argument).',
      { path: ADAPTERS },
      { path: `${DOMAIN}|^shared/(http|local)/`, pathNot: RECORD_MODULES },
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
    exclude: { path: '^(cdk[.]out|[.]data|bench/[.]out|verifier/dist)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'types', 'default'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
