import { describe, expect, it } from 'vitest';
import { cryptoRandom, type Random } from '../../shared/random.ts';
import { generatePhrase } from '../../shared/sign-in/phrase.ts';
import { PHRASE_WORDS } from '../../shared/sign-in/phrase-words.ts';

/** A `Random` that hands out exactly `stream`, then fails: the test knows every byte drawn. */
const fixedRandom = (stream: number[]): Random => {
  const left = [...stream];
  return {
    bytes(length) {
      if (left.length < length) throw new Error('the test stream ran out');
      return Uint8Array.from(left.splice(0, length));
    },
  };
};

/** Letters that must change to turn one word into the other (Levenshtein distance). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length]!;
}

describe('the request phrase a human compares', () => {
  it('is two words of the list, chosen by the bytes drawn', () => {
    expect(generatePhrase(fixedRandom([0, 1, 0, 0]))).toBe(`${PHRASE_WORDS[0]} ${PHRASE_WORDS[1]}`);
    expect(generatePhrase(fixedRandom([7, 3, 0, 0]))).toBe(`${PHRASE_WORDS[7]} ${PHRASE_WORDS[3]}`);
  });

  it('differs for two requests whose random bytes differ', () => {
    const first = generatePhrase(fixedRandom([10, 20, 0, 0]));
    const second = generatePhrase(fixedRandom([20, 10, 0, 0]));
    expect(first).not.toBe(second);
  });

  it('skips the bytes that would favour some words (rejection sampling)', () => {
    const limit = 256 - (256 % PHRASE_WORDS.length);
    // Every byte from `limit` up would fold onto the first words: skipped, not wrapped around.
    const stream = [limit, 255, 5, limit + 1, PHRASE_WORDS.length - 1, 0, 0, 0];
    expect(generatePhrase(fixedRandom(stream))).toBe(`${PHRASE_WORDS[5]} ${PHRASE_WORDS.at(-1)}`);
  });

  it('draws from a list of distinct, short, lower-case words no single typo turns into another', () => {
    expect(PHRASE_WORDS.length).toBeGreaterThanOrEqual(128);
    expect(PHRASE_WORDS.length).toBeLessThanOrEqual(256);
    expect(new Set(PHRASE_WORDS).size).toBe(PHRASE_WORDS.length);
    for (const word of PHRASE_WORDS) expect(word).toMatch(/^[a-z]{3,7}$/);
    for (const [i, a] of PHRASE_WORDS.entries()) {
      for (const b of PHRASE_WORDS.slice(i + 1)) expect(editDistance(a, b), `${a} / ${b}`).toBeGreaterThan(1);
    }
  });

  it('uses every word about equally from a CSPRNG, and rarely repeats a phrase', () => {
    const phrases = Array.from({ length: 20_000 }, () => generatePhrase(cryptoRandom));
    const counts = new Map<string, number>();
    for (const phrase of phrases) {
      expect(phrase).toMatch(/^[a-z]+ [a-z]+$/);
      for (const word of phrase.split(' ')) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    const expected = (2 * phrases.length) / PHRASE_WORDS.length;
    expect(counts.size).toBe(PHRASE_WORDS.length);
    for (const [word, count] of counts) expect(count, word).toBeLessThan(2 * expected);
    // 1,000 phrases of ~37,600 expect about 13 repeats; 50 would mean a broken generator.
    expect(new Set(phrases.slice(0, 1000)).size).toBeGreaterThan(950);
  });
});
