/**
 * The layering of DESIGN.md §1 and STYLE.md, checked on every `npm test` (`npm run deps`):
 *
 *   functions/  ->  shared/ domain  ->  shared/store, shared/crypto, shared/mail  (-> @aws-sdk/*)
 *
 * `lib/` is CDK only, `bin/` holds the entry points, `test/` and `bench/` sit outside and may use
 * anything but each other in the bench's direction.
 *
 * TypeScript imports carry their `.ts` extension (allowImportingTsExtensions); `tsConfig` makes the
 * resolver read tsconfig.json, and the swc parser (TypeScript 7 has no compiler API for
 * dependency-cruiser) sees type-only imports too, which count like any other import here.
 */

/** The domain folders of shared/: business rules, no transport, no AWS SDK. */
const DOMAIN = '^shared/(sign-in|sessions|users|tenancy|rate-limit|status)/';
/** The adapters: with local mode, the only code that may talk to AWS through the SDK. */
const ADAPTERS = '^shared/(store|crypto|mail)/';
/** Local mode starts DynamoDB Local and creates its table: infrastructure of `npm start`, as lib/ is on AWS. */
const LOCAL_MODE = '^shared/local/';
const COMPOSITION_ROOT = '^shared/deps[.]ts$';
const AWS_SDK = '^node_modules/@aws-sdk/';

/**
 * TEMPORARY, issue 6: imports against the layering that the production code has today, one entry
 * per file and rule, each exempting that file from that rule only. The store/caller reshaping
 * removes them; delete each entry (and finally this list) as it goes. Nothing new belongs here.
 * Each entry: [rule, file, the import that breaks it].
 */
const KNOWN_VIOLATIONS = [
  // issue 6: removed by the store/caller reshaping
  ['aws-sdk-only-in-adapters', 'shared/rate-limit/rate-limit.ts', '@aws-sdk/lib-dynamodb'],
  // issue 6: removed by the store/caller reshaping
  ['aws-sdk-only-in-adapters', 'shared/sessions/manage.ts', '@aws-sdk/lib-dynamodb'],
  // issue 6: removed by the store/caller reshaping
  ['aws-sdk-only-in-adapters', 'shared/sign-in/check-code.ts', '@aws-sdk/lib-dynamodb'],
  // issue 6: removed by the store/caller reshaping
  ['aws-sdk-only-in-adapters', 'shared/sign-in/complete.ts', '@aws-sdk/lib-dynamodb'],
  // issue 6: removed by the store/caller reshaping
  ['aws-sdk-only-in-adapters', 'shared/sign-in/poll.ts', '@aws-sdk/lib-dynamodb'],
  // issue 6: removed by the store/caller reshaping
  ['aws-sdk-only-in-adapters', 'shared/sign-in/start.ts', '@aws-sdk/lib-dynamodb'],
  // issue 6: removed by the store/caller reshaping
  ['aws-sdk-only-in-adapters', 'shared/sign-in/verify.ts', '@aws-sdk/lib-dynamodb'],
  // issue 6: removed by the store/caller reshaping
  ['aws-sdk-only-in-adapters', 'shared/status/checks.ts', '@aws-sdk/lib-dynamodb'],
  // issue 6: removed by the store/caller reshaping
  ['aws-sdk-only-in-adapters', 'shared/tenancy/api-keys.ts', '@aws-sdk/lib-dynamodb'],
  // issue 6: removed by the store/caller reshaping
  ['aws-sdk-only-in-adapters', 'shared/tenancy/applications.ts', '@aws-sdk/lib-dynamodb'],
  // issue 6: removed by the store/caller reshaping
  ['aws-sdk-only-in-adapters', 'shared/tenancy/scope.ts', '@aws-sdk/lib-dynamodb'],
  // issue 6: removed by the store/caller reshaping
  ['aws-sdk-only-in-adapters', 'shared/users/update-user.ts', '@aws-sdk/lib-dynamodb'],
];

/** The files `rule` does not yet apply to, as a regular expression (one that matches nothing if none). */
function knownViolationsOf(rule) {
  const files = KNOWN_VIOLATIONS.filter(([name]) => name === rule).map(
    ([, file]) => `^${file.replace(/[.]/g, '[.]')}$`,
  );
  return files.length > 0 ? files : ['^$'];
}

/** A rule whose `from` leaves out the files listed for it in KNOWN_VIOLATIONS. */
function rule(name, comment, from, to) {
  return {
    name,
    comment,
    severity: 'error',
    from: { ...from, pathNot: [...(from.pathNot ?? []), ...knownViolationsOf(name)] },
    to,
  };
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
      'The store, crypto and mail adapters sit below the domain: they never import a domain folder, shared/http or shared/local.',
      { path: ADAPTERS },
      { path: `${DOMAIN}|^shared/(http|local)/` },
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
    rule('bench-not-test', 'bench/ never imports test/.', { path: '^bench/' }, { path: '^test/' }),
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
    exclude: { path: '^(cdk[.]out|[.]data|bench/[.]out)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'types', 'default'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
