import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inMemoryCodeHasher } from '../../shared/crypto/local-code-key.ts';
import { cryptoRandom, type Random } from '../../shared/random.ts';
import {
  CODE_ALPHABET,
  CODE_LENGTH,
  codeHash,
  formatCode,
  generateCode,
  normaliseCode,
} from '../../shared/sign-in/code.ts';
import fc from '../support/fast-check.ts';

const DISPLAYED = /^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/;

/**
 * A `Random` whose bytes come from fast-check (so shrinking finds the smallest failing stream),
 * then from a CSPRNG once the generated stream runs out (so rejection sampling always ends).
 */
const randomFrom = (stream: Uint8Array): Random => {
  let offset = 0;
  return {
    bytes(length) {
      const out = new Uint8Array(length);
      for (let i = 0; i < length; i++) {
        out[i] = offset < stream.length ? stream[offset++]! : cryptoRandom.bytes(1)[0]!;
      }
      return out;
    },
  };
};

const byteStreams = fc.uint8Array({ minLength: 0, maxLength: 64 });
/** Strings made of code characters in either case, hyphens and whitespace. */
const codeLike = fc
  .array(fc.constantFrom(...`${CODE_ALPHABET}${CODE_ALPHABET.toLowerCase()}-  \t\n`), { maxLength: 24 })
  .map((chars) => chars.join(''));
const anyCode = byteStreams.map((stream) => generateCode(randomFrom(stream)));

describe('normaliseCode (case-insensitive, hyphens ignored)', () => {
  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), codeLike), (input) => {
        expect(normaliseCode(normaliseCode(input))).toBe(normaliseCode(input));
      }),
    );
  });

  it('ignores case', () => {
    fc.assert(
      fc.property(codeLike, (input) => {
        expect(normaliseCode(input.toLowerCase())).toBe(normaliseCode(input.toUpperCase()));
      }),
    );
  });

  it('ignores hyphens and spaces wherever they are', () => {
    fc.assert(
      fc.property(
        anyCode,
        fc.array(fc.tuple(fc.nat(CODE_LENGTH), fc.constantFrom('-', ' ', '  ', '\t', '--')), {
          maxLength: 6,
        }),
        (code, insertions) => {
          let typed = code;
          for (const [at, filler] of insertions) typed = `${typed.slice(0, at)}${filler}${typed.slice(at)}`;
          expect(normaliseCode(typed)).toBe(code);
        },
      ),
    );
  });

  it('leaves no lower-case letter, hyphen or space', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), codeLike), (input) => {
        expect(normaliseCode(input)).not.toMatch(/[a-z\s-]/);
      }),
    );
  });
});

describe('generateCode and formatCode (unambiguous alphabet, shown XXXX-XXXX)', () => {
  it('always displays two groups of four from the unambiguous alphabet', () => {
    fc.assert(
      fc.property(byteStreams, (stream) => {
        const shown = formatCode(generateCode(randomFrom(stream)));
        expect(shown).toMatch(DISPLAYED);
        expect(shown).not.toMatch(/[0O1IL]/);
      }),
      { numRuns: 500 },
    );
  });

  it('displays codes of a real CSPRNG the same way', () => {
    for (let i = 0; i < 2000; i++) {
      const shown = formatCode(generateCode(cryptoRandom));
      expect(shown).toMatch(DISPLAYED);
      expect(shown).not.toMatch(/[0O1IL]/);
    }
  });

  it('reads back what it displays', () => {
    fc.assert(
      fc.property(anyCode, (code) => {
        expect(code).toHaveLength(CODE_LENGTH);
        expect(normaliseCode(formatCode(code))).toBe(code);
      }),
    );
  });

  it('skips the bytes that would favour some characters (rejection sampling)', () => {
    // 256 % 31 = 8: bytes 248..255 must be skipped, not folded onto the first eight characters.
    const stream = new Uint8Array([248, 249, 250, 251, 252, 253, 254, 255, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(generateCode(randomFrom(stream))).toBe(CODE_ALPHABET.slice(8, 16));
  });
});

describe('codeHash (HMAC of request id + normalised code, keyed with the code key)', () => {
  const key = 'ab'.repeat(32);
  const hasher = inMemoryCodeHasher(key);

  it('is the same for the displayed code and what a user types', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40 }), anyCode, async (requestId, code) => {
        const shown = formatCode(code);
        const typed = shown.toLowerCase().replace('-', '');
        const stored = await codeHash(hasher, requestId, shown);
        expect(await codeHash(hasher, requestId, typed)).toBe(stored);
        expect(await codeHash(hasher, requestId, ` ${shown.toLowerCase()} `)).toBe(stored);
        expect(stored).toMatch(/^[0-9a-f]{64}$/);
      }),
    );
  });

  it('is the HMAC-SHA256 under the key, never a plain SHA-256 a table reader could search', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1 }), anyCode, async (requestId, code) => {
        const stored = await codeHash(hasher, requestId, code);
        const message = `${requestId}:${code}`;
        expect(stored).toBe(createHmac('sha256', Buffer.from(key, 'hex')).update(message).digest('hex'));
        expect(stored).not.toBe(createHash('sha256').update(message).digest('hex'));
        expect(await codeHash(inMemoryCodeHasher(), requestId, code)).not.toBe(stored);
      }),
    );
  });

  it('binds the code to its request', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        anyCode,
        async (first, second, code) => {
          fc.pre(first !== second);
          expect(await codeHash(hasher, first, code)).not.toBe(await codeHash(hasher, second, code));
        },
      ),
    );
  });

  it('differs for different codes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), anyCode, anyCode, async (requestId, a, b) => {
        fc.pre(a !== b);
        expect(await codeHash(hasher, requestId, a)).not.toBe(await codeHash(hasher, requestId, b));
      }),
    );
  });
});

describe('the spread of generated codes', () => {
  it('uses every character about equally over 20,000 codes', () => {
    const codes = 20_000;
    const counts = new Map<string, number>([...CODE_ALPHABET].map((c) => [c, 0]));
    for (let i = 0; i < codes; i++) {
      for (const c of generateCode(cryptoRandom)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect([...counts.keys()].sort().join('')).toBe([...CODE_ALPHABET].sort().join(''));
    const expected = (codes * CODE_LENGTH) / CODE_ALPHABET.length;
    let chiSquare = 0;
    for (const [c, count] of counts) {
      expect(count, c).toBeGreaterThan(0);
      expect(count, c).toBeLessThan(2 * expected);
      chiSquare += (count - expected) ** 2 / expected;
    }
    // 30 degrees of freedom: the 99.9999th percentile is about 76.
    expect(chiSquare).toBeLessThan(90);
  });

  it('spreads every position, not just the whole code', () => {
    const codes = 20_000;
    const expected = codes / CODE_ALPHABET.length;
    const perPosition = Array.from({ length: CODE_LENGTH }, () => new Map<string, number>());
    for (let i = 0; i < codes; i++) {
      [...generateCode(cryptoRandom)].forEach((c, position) => {
        const counts = perPosition[position]!;
        counts.set(c, (counts.get(c) ?? 0) + 1);
      });
    }
    for (const counts of perPosition) {
      expect(counts.size).toBe(CODE_ALPHABET.length);
      for (const count of counts.values()) expect(count).toBeLessThan(2 * expected);
    }
  });
});
