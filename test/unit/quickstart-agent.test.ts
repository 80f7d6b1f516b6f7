import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/quickstart-agent.md's poll loop, run as written by bash and jq (WebAssembly, test/support/jq.mjs), with `curl` and `sleep`
 * replaced by shell functions that answer from a script and record each wait.
 */
const JQ = fileURLToPath(new URL('../support/jq.mjs', import.meta.url));
const doc = readFileSync(new URL('../../docs/quickstart-agent.md', import.meta.url), 'utf8');
const loop = doc.match(/^while :; do\n[\s\S]*?^done$/m)?.[0];

interface Answer {
  status: number;
  body?: unknown;
}

function runLoop(answers: Answer[]): { token: string; waits: number[]; polls: number } {
  const dir = mkdtempSync(join(tmpdir(), 'quickstart-agent-'));
  for (const [index, answer] of answers.entries()) {
    const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
    writeFileSync(join(dir, `answer-${index + 1}`), `${body}\n${String(answer.status).padStart(3, '0')}`);
  }
  writeFileSync(join(dir, 'polls'), '0');
  const script = [
    'set -u',
    `DIR='${dir}'; BASE=http://127.0.0.1:9; DEVICE=d; INTERVAL=5; TOKEN=`,
    // `$(curl …)` runs in a subshell: the count lives in a file.
    'curl() { n=$(( $(cat "$DIR/polls") + 1 )); echo "$n" > "$DIR/polls"; cat "$DIR/answer-$n"; }',
    'sleep() { echo "$1" >> "$DIR/waits"; }',
    // The real jq, as WebAssembly: no jq needs to be installed on the machine.
    `jq() { node '${JQ}' "$@"; }`,
    loop ?? 'false',
    'echo "TOKEN=$TOKEN"',
  ].join('\n');
  const output = execFileSync('bash', ['-c', script], { encoding: 'utf8' });
  const token = output.match(/^TOKEN=(.*)$/m)?.[1] ?? '';
  const waits = readFileSync(join(dir, 'waits'), 'utf8').trim().split('\n').map(Number);
  return { token, waits, polls: Number(readFileSync(join(dir, 'polls'), 'utf8')) };
}

const error = (code: string, details?: Record<string, unknown>) => ({
  error: { code, message: code, details },
});

describe('docs/quickstart-agent.md poll loop', () => {
  it('polls on through pending, a 503 with retryAfter, slow_down, a throttle and no answer, then keeps the token', () => {
    // Act
    const outcome = runLoop([
      { status: 428, body: error('UNPROCESSABLE', { reason: 'authorization_pending', interval: 5 }) },
      { status: 503, body: error('SERVICE_UNAVAILABLE', { retryAfter: 20 }) },
      { status: 429, body: error('RATE_LIMITED', { reason: 'slow_down', interval: 10 }) },
      { status: 429, body: { message: 'Too Many Requests' } },
      { status: 0 },
      { status: 200, body: { token: 'tok_agent' } },
    ]);

    // Assess
    expect(loop).toBeDefined();
    expect(outcome).toEqual({ token: 'tok_agent', waits: [5, 5, 20, 10, 10, 10], polls: 6 });
  });

  it.each([
    ['EXPIRED', 400],
    ['FORBIDDEN', 400],
  ])('stops on %s', (code, status) => {
    // Act
    const outcome = runLoop([{ status, body: error(code) }]);

    // Assess
    expect(outcome).toEqual({ token: '', waits: [5], polls: 1 });
  });
});
