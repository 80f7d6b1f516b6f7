import type { CodeHasher } from './crypto/code-hasher.ts';
import type { SecretSealer } from './crypto/secret-sealer.ts';
import type { Signer } from './crypto/signer.ts';
import type { Mailer } from './mail/mailer.ts';
import { type AdapterPort, accessNamed } from './route-access.ts';
import type { Db } from './store/db.ts';

/**
 * A route used a port its `access` does not declare (shared/routes.ts): a programming error,
 * answered 500 by the chain. Its function has neither the grant nor, bundled, the adapter code.
 */
export class UndeclaredAccessError extends Error {
  override readonly name = 'UndeclaredAccessError';
}

const refusal = (route: string, port: AdapterPort, access = accessNamed(port), used: string = port) =>
  new UndeclaredAccessError(`${route} used deps.${used}, but its route declares no ${access} access`);

/** Stand-ins for the ports a route did not declare; `route` names it in the error. */
export const undeclared = {
  db(route: string): Db {
    const fail = (): never => {
      throw refusal(route, 'db');
    };
    return {
      get client(): never {
        return fail();
      },
      get table(): never {
        return fail();
      },
    };
  },
  signer(route: string): Signer {
    const fail = () => Promise.reject(refusal(route, 'signer'));
    return { activeKey: fail, publicKeys: fail, sign: fail };
  },
  mailer(route: string): Mailer {
    const fail = () => Promise.reject(refusal(route, 'mailer'));
    return { send: fail, isSuppressed: fail };
  },
  codeHasher(route: string): CodeHasher {
    return { hash: () => Promise.reject(refusal(route, 'codeHasher')) };
  },
  /** A route that declares `seal: 'encrypt'` may seal but not open, and `'decrypt'` the reverse. */
  sealer(route: string, declared?: SecretSealer, access?: 'encrypt' | 'decrypt'): SecretSealer {
    return {
      seal:
        declared && access === 'encrypt'
          ? (applicationId, plaintext) => declared.seal(applicationId, plaintext)
          : () => Promise.reject(refusal(route, 'sealer', "`seal: 'encrypt'`", 'sealer.seal')),
      open:
        declared && access === 'decrypt'
          ? (applicationId, sealed) => declared.open(applicationId, sealed)
          : () => Promise.reject(refusal(route, 'sealer', "`seal: 'decrypt'`", 'sealer.open')),
    };
  },
};
