import { describe, expect, it } from 'vitest';
import { createLogger } from '../../shared/log.ts';
import { RequestMetrics } from '../../shared/metrics/metrics.ts';

describe('RequestMetrics', () => {
  it('adds up counts and hands them over once', () => {
    const metrics = new RequestMetrics();
    metrics.count('RateLimited');
    metrics.count('RateLimited', 2);
    expect(metrics.flush('acme', 1_000)).toMatchObject({
      _aws: { Timestamp: 1_000 },
      Service: 'acme',
      RateLimited: 3,
    });
    expect(metrics.flush('acme', 2_000)).toBeUndefined();
  });
});

describe('Logger.always (metrics do not depend on LOG_LEVEL)', () => {
  it('writes an info line under any minimum level but silent', () => {
    const lines: string[] = [];
    createLogger('error', (line) => lines.push(line)).always('metrics', { Service: 'acme' });
    createLogger('silent', (line) => lines.push(line)).always('metrics', { Service: 'acme' });
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 'info', message: 'metrics', Service: 'acme' }),
    ]);
  });
});
