import { expect } from 'vitest';
import type { TestResponse } from './http-client.ts';

/**
 * docs/api.md, Endpoints: the answer is `status` with the platform envelope
 * `{ error: { code, message, details? } }`, served as JSON, and nothing beside the envelope.
 */
export function expectError(response: TestResponse, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  expect(response.headers['content-type']).toMatch(/^application\/json\b/);
  expect(Object.keys(response.body)).toEqual(['error']);
  expect(response.body.error).toEqual({
    code,
    message: expect.any(String),
    ...('details' in response.body.error ? { details: expect.any(Object) } : {}),
  });
  expect(response.body.error.message.length).toBeGreaterThan(0);
}
