import { fail } from '../errors.ts';
import type { BodySpec } from '../routes.ts';
import type { HttpEvent } from './types.ts';

/** Largest accepted body: a 716800-char image (docs/api.md, Profile images) plus room for the envelope. */
export const MAX_BODY_BYTES = 768 * 1024;

const mediaTypes = {
  json: /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i,
  form: /^application\/x-www-form-urlencoded\s*(?:;.*)?$/i,
};

/** The raw body as text, refused when too large, missing, or not of the route's media type. */
export function bodyText(event: HttpEvent, spec: BodySpec): string {
  const { body, isBase64Encoded } = event;
  const text =
    body === undefined ? '' : isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) {
    throw fail('payloadTooLarge', `The body exceeds ${MAX_BODY_BYTES} bytes`);
  }
  const kind = 'json' in spec ? 'json' : 'form';
  if (text === '') throw fail('invalidRequest', `A ${kind === 'json' ? 'JSON' : 'form'} body is required`);
  const contentType = event.headers?.['content-type'] ?? '';
  if (!mediaTypes[kind].test(contentType)) {
    throw fail(
      'unsupportedMediaType',
      kind === 'json'
        ? 'Send the body as application/json'
        : 'Send the body as application/x-www-form-urlencoded',
    );
  }
  return text;
}

/** A form body as an object; a parameter sent twice is refused (RFC 6749 §3.1). */
export function parseForm(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, name)) throw fail('invalidRequest', `The parameter ${name} is repeated`);
    fields[name] = value;
  }
  return fields;
}
