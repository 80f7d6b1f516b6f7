import { originalStack } from './original-stack.ts';

/** Structured JSON logs. Callers pass only fields that are safe to log: never a code, token or key. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  log(level: LogLevel, message: string, fields?: LogFields): void;
  /**
   * Writes an `info` line whatever the minimum level, unless logging is silent: metrics
   * (shared/metrics/metrics.ts) and the alarms on them must not depend on LOG_LEVEL.
   */
  always(message: string, fields: LogFields): void;
  child(fields: LogFields): Logger;
}

const rank: Record<LogLevel | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export function createLogger(
  minLevel: LogLevel | 'silent',
  sink: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  base: LogFields = {},
): Logger {
  return {
    log(level, message, fields) {
      if (rank[level] < rank[minLevel]) return;
      sink(JSON.stringify({ level, time: new Date().toISOString(), message, ...base, ...fields }));
    },
    always(message, fields) {
      if (minLevel === 'silent') return;
      sink(JSON.stringify({ level: 'info', time: new Date().toISOString(), message, ...base, ...fields }));
    },
    child(fields) {
      return createLogger(minLevel, sink, { ...base, ...fields });
    },
  };
}

/**
 * What may be logged of an unexpected error: its name, message and stack (in source positions
 * when the bundle's source map is beside it), never attached data.
 */
export function describeError(error: unknown): LogFields {
  if (error instanceof Error) {
    const stack = error.stack?.split('\n').slice(0, 8).join('\n');
    return {
      errorName: error.name,
      errorMessage: error.message,
      stack: stack && (originalStack(stack) ?? stack),
    };
  }
  return { errorName: typeof error };
}
