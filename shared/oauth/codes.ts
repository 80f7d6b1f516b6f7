/**
 * Authorization codes (OAuth 2.1 §4.1.2): 256 random bits shown once to the client's redirect URI,
 * stored only as their SHA-256 (docs/oauth.md, "Consent"), single use, 10 minutes, bound to
 * everything the token request must match. The grant id is chosen here so a replayed code can
 * revoke what its first exchange produced.
 */
import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { newId, newSecret } from '../random.ts';
import { putAuthorizationCode } from '../store/oauth.ts';
import { AUTHORIZATION_CODE_TTL_SECONDS, type AuthorizationCodeRecord } from './model.ts';

export type CodeInput = Omit<
  AuthorizationCodeRecord,
  'codeHash' | 'grantId' | 'issuedAt' | 'expiresAt' | 'usedAt'
>;

export async function issueAuthorizationCode(deps: Deps, input: CodeInput): Promise<string> {
  const code = newSecret(deps.random);
  const issuedAt = Math.floor(deps.clock.now() / 1000);
  const record: AuthorizationCodeRecord = {
    ...input,
    codeHash: sha256Hex(code),
    grantId: newId(deps.random, 'grt'),
    issuedAt,
    expiresAt: issuedAt + AUTHORIZATION_CODE_TTL_SECONDS,
  };
  const { outcome } = await putAuthorizationCode(deps.db, record);
  if (outcome !== 'created') throw new Error('An authorization code collided with a stored one');
  return code;
}
