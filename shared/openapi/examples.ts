/**
 * Examples derived from the JSON Schema of a request or answer (shared/openapi/document.ts), so they
 * cannot drift from the contract: every property present, the first choice of a union, values
 * named after their field where a name says what it holds, or the contract's own `example` (zod
 * `meta`) where a refinement the JSON Schema cannot show decides (one of two fields).
 * test/unit/openapi.test.ts checks each example against its JSON Schema and its zod contract.
 */
type Schema = Record<string, unknown>;

/** Sample strings by field name: what a reader expects to see there. */
const byName: Array<[RegExp, string]> = [
  [/^email$/i, 'ada@example.com'],
  [
    /^(token|access_token|refresh_token|id_token)$/,
    'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJ1c3JfMSJ9.c2ln',
  ],
  [/(At|_at)$/, '2026-01-01T12:00:00.000Z'],
  [/^timestamp$/, '2026-01-01T12:00:00.000Z'],
  // The configuration's refinements: an https origin without a path, https resource URIs, and a
  // synthetic mail domain under a reserved test TLD (shared/tenancy/configuration-document.ts).
  [/^origins?$/, 'https://app.example.com'],
  [/^resources$/, 'https://mcp.example.com/mcp'],
  [/^syntheticEmailDomain$/, 'agents.acme.test'],
  [/^socialReturnUrls$/, 'https://app.example.com/after-sign-in'],
  [/(url|Url|uri|Uri|issuer|resource|^image)$/, 'https://auth.example.com/'],
  [/(color|Color)$/, '#3366ff'],
  // RFC 7636 appendix B's pair: the application page's PKCE of social sign-in
  // (docs/api.md, Social sign-in page).
  [/^code_challenge$/, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'],
  [/^code_verifier$/, 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'],
  // Eight letters and digits of the code alphabet, shown as XXXX-XXXX
  // (docs/security.md, Secrets and what is stored).
  [/^code$/, 'ABCD-EFGH'],
  [/^deviceCode$/, 'dc_3b1f0c2e9a'],
  [/^name$/, 'Ada Lovelace'],
  [/^id$|Id$/, '01HZX3R8Q5T7VJ2M'],
];

/** Sample strings for the patterns and formats the contracts use. */
const byPattern: Record<string, string> = {
  '^#[0-9a-fA-F]{6}$': '#3366ff',
  '^\\d{1,6}$': '20',
};
const byFormat: Record<string, string> = {
  email: 'ada@example.com',
  uri: 'https://app.example.com/',
  'date-time': '2026-01-01T12:00:00.000Z',
};

function sampleString(schema: Schema, name: string): string {
  if (typeof schema.pattern === 'string' && byPattern[schema.pattern])
    return byPattern[schema.pattern] as string;
  if (typeof schema.format === 'string' && byFormat[schema.format]) return byFormat[schema.format] as string;
  const named = byName.find(([pattern]) => pattern.test(name))?.[1] ?? 'string';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  return named.padEnd(min, 'x').slice(0, max);
}

/** Sample numbers by field name: the values the service really uses. */
const numberByName: Record<string, number> = {
  interval: 5,
  expiresIn: 600,
  expires_in: 3600,
  attemptsLeft: 4,
  retryAfter: 30,
};

/** zod's `int()` bounds every integer by ±(2^53-1): a bound that says nothing about the field. */
const meaningful = (bound: unknown): number | undefined =>
  typeof bound === 'number' && Math.abs(bound) < Number.MAX_SAFE_INTEGER ? bound : undefined;

function sampleNumber(schema: Schema, integer: boolean, name: string): number {
  const low = meaningful(schema.minimum) ?? meaningful(schema.exclusiveMinimum);
  const high = meaningful(schema.maximum) ?? meaningful(schema.exclusiveMaximum);
  const named = numberByName[name];
  if (named !== undefined && (low === undefined || named >= low) && (high === undefined || named <= high))
    return named;
  const base = low !== undefined ? low + (schema.exclusiveMinimum === low ? 1 : 0) : 1;
  const value = high !== undefined && base > high ? high : base;
  return integer ? Math.ceil(value) : value;
}

/** One value the schema accepts, or undefined where it admits nothing to show (`{}` excepted). */
export function exampleOf(schema: Schema, name = ''): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema) return schema.default;
  // zod keeps `example` metadata on the input side (it drops `examples` past a transform).
  if ('example' in schema) return schema.example;
  const choices = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (choices) {
    // Prefer a choice that is not null: an example shows the value.
    const chosen = choices.find((choice) => choice.type !== 'null') ?? choices[0];
    return chosen ? exampleOf(chosen, name) : null;
  }
  if (Array.isArray(schema.allOf)) return exampleOf((schema.allOf[0] ?? {}) as Schema, name);
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [key, exampleOf(property, key)]),
      );
    }
    case 'array': {
      const items = (schema.items ?? {}) as Schema;
      const count = typeof schema.minItems === 'number' ? Math.max(1, schema.minItems) : 1;
      return Array.from({ length: count }, () => exampleOf(items, name));
    }
    case 'string':
      return sampleString(schema, name);
    case 'integer':
      return sampleNumber(schema, true, name);
    case 'number':
      return sampleNumber(schema, false, name);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}
