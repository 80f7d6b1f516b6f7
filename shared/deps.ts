// The AWS adapters: a route's bundle resolves only those its access declares (shared/route-access.ts).

import { codeHasherFrom } from '#adapters/code-key';
import { createDb } from '#adapters/dynamodb';
import { secretSealerFrom } from '#adapters/sealer';
import { sesMailerFrom } from '#adapters/ses';
import { signerFrom } from '#adapters/signing';
import { type Clock, systemClock } from './clock.ts';
import { type Config, loadConfig } from './config.ts';
import type { CodeHasher } from './crypto/code-hasher.ts';
import type { SecretSealer } from './crypto/secret-sealer.ts';
import type { Signer } from './crypto/signer.ts';
import { createLogger, type Logger } from './log.ts';
import type { Mailer } from './mail/mailer.ts';
import { type Metrics, noMetrics } from './metrics/metrics.ts';
import { cryptoRandom, type Random } from './random.ts';
import { declares } from './route-access.ts';
import type { AccessProfile, RouteSpec } from './routes.ts';
import type { Db } from './store/db.ts';
import { undeclared } from './undeclared.ts';

/** Everything a domain function may use. Built once per container; tests pass their own. */
export interface Deps {
  readonly config: Config;
  readonly db: Db;
  readonly signer: Signer;
  readonly mailer: Mailer;
  readonly codeHasher: CodeHasher;
  /** Seals and opens owners' OAuth client secrets (docs/security.md, Provider client secrets). */
  readonly sealer: SecretSealer;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  /** This request's counts (the handler chain writes them as EMF); counts nothing outside a request. */
  readonly metrics: Metrics;
}

/** Every port: what the local server, tests and benches build. */
const allAccess: AccessProfile = {
  table: 'readwrite',
  sign: true,
  publicKeys: true,
  mail: true,
  codeKey: true,
};

/** The sealer a route's access allows: its adapter behind a stand-in that refuses the other operation. */
const sealerFor = (access: AccessProfile, label: string, sealer: () => SecretSealer): SecretSealer =>
  access.seal === undefined ? undeclared.sealer(label) : undeclared.sealer(label, sealer(), access.seal);

/**
 * The composition root: the adapters `access` declares, chosen by configuration, any of them
 * replaceable; an undeclared port is a stand-in that fails naming `caller` and the missing access.
 */
export function createDeps(
  config: Config,
  overrides: Partial<Omit<Deps, 'config'>> = {},
  access: AccessProfile = allAccess,
  caller = 'this caller',
): Deps {
  const clock = overrides.clock ?? systemClock;
  return {
    config,
    db:
      overrides.db ??
      (declares(access, 'db')
        ? createDb({
            table: config.TABLE_NAME,
            region: config.AWS_REGION,
            endpoint: config.DYNAMODB_ENDPOINT,
          })
        : undeclared.db(caller)),
    signer:
      overrides.signer ??
      (declares(access, 'signer') ? signerFrom(config, clock) : undeclared.signer(caller)),
    mailer:
      overrides.mailer ?? (declares(access, 'mailer') ? sesMailerFrom(config) : undeclared.mailer(caller)),
    codeHasher:
      overrides.codeHasher ??
      (declares(access, 'codeHasher') ? codeHasherFrom(config) : undeclared.codeHasher(caller)),
    sealer:
      overrides.sealer ??
      // The full deps (local server, tests) hold the whole sealer; each route's view narrows it.
      (access === allAccess
        ? secretSealerFrom(config)
        : sealerFor(access, caller, () => secretSealerFrom(config))),
    clock,
    random: overrides.random ?? cryptoRandom,
    logger: overrides.logger ?? createLogger(config.LOG_LEVEL),
    metrics: overrides.metrics ?? noMetrics,
  };
}

const routeLabel = (route: RouteSpec) => `${route.method} ${route.path}`;
const built = new Map<RouteSpec, Deps>();

/**
 * The container's dependencies for `route` (on Lambda, its only one), built from the environment
 * on first use: only the adapters its access declares.
 */
export function getDeps(route: RouteSpec): Deps {
  let deps = built.get(route);
  if (!deps) {
    deps = createDeps(loadConfig(), {}, route.access, routeLabel(route));
    built.set(route, deps);
  }
  return deps;
}

const views = new WeakMap<Deps, Map<RouteSpec, Deps>>();

/**
 * `deps` with the ports `route` does not declare replaced by stand-ins, as its Lambda function
 * has them: the local server and tests share full deps between routes and still catch a route
 * that uses a port it did not declare. Built once per deps and route.
 */
function declaredOnly(deps: Deps, route: RouteSpec): Deps {
  let byRoute = views.get(deps);
  if (!byRoute) {
    byRoute = new Map();
    views.set(deps, byRoute);
  }
  let view = byRoute.get(route);
  if (!view) {
    const { access } = route;
    const label = routeLabel(route);
    view = {
      ...deps,
      db: declares(access, 'db') ? deps.db : undeclared.db(label),
      signer: declares(access, 'signer') ? deps.signer : undeclared.signer(label),
      mailer: declares(access, 'mailer') ? deps.mailer : undeclared.mailer(label),
      codeHasher: declares(access, 'codeHasher') ? deps.codeHasher : undeclared.codeHasher(label),
      sealer: sealerFor(access, label, () => deps.sealer),
    };
    byRoute.set(route, view);
  }
  return view;
}

let coldRequestId: string | undefined;

/**
 * The request's view of `deps`: the ports its route declares, and a logger whose every line
 * carries the request id, the route and whether this is the container's first request (that
 * request's id is remembered, so asking again within it still answers true), and `metrics`,
 * which the chain writes when it answers (none given: counts nothing).
 */
export function forRequest(
  deps: Deps,
  route: RouteSpec,
  requestId: string,
  metrics: Metrics = noMetrics,
): Deps {
  coldRequestId ??= requestId;
  const logger = deps.logger.child({
    requestId,
    route: routeLabel(route),
    coldStart: requestId === coldRequestId,
  });
  return { ...declaredOnly(deps, route), logger, metrics };
}
