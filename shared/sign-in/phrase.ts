import type { Random } from '../random.ts';
import { PHRASE_WORDS } from './phrase-words.ts';

/** Two words: enough that a later start by someone else shows another phrase (1 in 37,636 alike). */
const PHRASE_LENGTH = 2;

/**
 * The phrase `start` answers and its email shows, so the human approves only the request whose phrase the
 * agent displays (docs/security.md, "Telling two sign-in requests apart (the request phrase)"). Not a secret:
 * it authorizes nothing. Uniform over the list from a CSPRNG: bytes that would favour the first words are
 * skipped, as for codes.
 */
export function generatePhrase(random: Random): string {
  const limit = 256 - (256 % PHRASE_WORDS.length);
  const words: string[] = [];
  while (words.length < PHRASE_LENGTH) {
    for (const byte of random.bytes(PHRASE_LENGTH * 2)) {
      const word = PHRASE_WORDS[byte % PHRASE_WORDS.length];
      if (byte < limit && word && words.length < PHRASE_LENGTH) words.push(word);
    }
  }
  return words.join(' ');
}
