/**
 * What a route's bundle holds instead of an adapter its route does not declare: lib/bundling.ts
 * aliases that adapter's `#adapters/...` import here, so neither the adapter nor its SDK client is
 * in the bundle. Every adapter's factory name is exported; none is ever called, because shared/deps.ts
 * builds only what the route declares. A call means the bundle and the route table disagree.
 */
function absent(): never {
  throw new Error(
    'This bundle holds no such adapter: its route does not declare the access (lib/bundling.ts)',
  );
}

export const createDb = absent;
export const signerFrom = absent;
export const sesMailerFrom = absent;
export const codeHasherFrom = absent;
export const secretSealerFrom = absent;
