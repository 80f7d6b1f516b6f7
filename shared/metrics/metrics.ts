/**
 * Service metrics, written as CloudWatch embedded metric format (EMF) lines in the function log:
 * CloudWatch extracts them from the log group, so no PutMetricData call, grant or client is needed.
 * docs/operations.md says what each one means; lib/alarms.ts alarms on them.
 */

/** The CloudWatch namespace of every metric here; the one dimension is `Service` (SERVICE_NAME). */
export const METRIC_NAMESPACE = 'Doorcode';

/** Every metric the service writes (lib/alarms.ts graphs each of them). */
export const METRIC_NAMES = [
  'SignInsStarted',
  'SignInsCompleted',
  'SignInsFailed',
  'CodesRefused',
  'RateLimited',
  'EmailsSent',
  'EmailsRefused',
  'KmsSignErrors',
  'MailCapReached',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** Why a sign-in code was refused: the `Reason` dimension of `CodesRefused`. */
export const CODE_REFUSALS = ['wrong', 'expired', 'tooMany'] as const;
export type CodeRefusal = (typeof CODE_REFUSALS)[number];

/** Counts what happened during one request; the handler chain writes them once, when it answers. */
export interface Metrics {
  /** Adds `n` (default 1) to `name`. */
  count(name: MetricName, n?: number): void;
  /** Counts one refused code (`CodesRefused`) with its reason. */
  refuseCode(reason: CodeRefusal): void;
}

/** Counts nothing: the default outside a request (benches, scripts). */
export const noMetrics: Metrics = { count() {}, refuseCode() {} };

/** The EMF document of one request's counts: the caller adds it to a log line. */
export type MetricDocument = Record<string, unknown>;

/** One request's counts. `flush` hands them over once and starts again from nothing. */
export class RequestMetrics implements Metrics {
  #counts = new Map<MetricName, number>();
  #reason: CodeRefusal | undefined;

  count(name: MetricName, n = 1): void {
    this.#counts.set(name, (this.#counts.get(name) ?? 0) + n);
  }

  refuseCode(reason: CodeRefusal): void {
    this.count('CodesRefused');
    this.#reason = reason;
  }

  /**
   * The EMF document of what was counted (undefined: nothing), with `service` as the `Service`
   * dimension and `at` (ms since the epoch) as its time. `CodesRefused` is also published per
   * `Reason` (EMF: a second directive with its own dimension set).
   */
  flush(service: string, at: number): MetricDocument | undefined {
    const counted = [...this.#counts.entries()];
    const reason = this.#reason;
    this.#counts = new Map();
    this.#reason = undefined;
    if (counted.length === 0) return undefined;
    const directives: object[] = [
      {
        Namespace: METRIC_NAMESPACE,
        Dimensions: [['Service']],
        Metrics: counted.map(([name]) => ({ Name: name, Unit: 'Count' })),
      },
    ];
    if (reason) {
      directives.push({
        Namespace: METRIC_NAMESPACE,
        Dimensions: [['Service', 'Reason']],
        Metrics: [{ Name: 'CodesRefused', Unit: 'Count' }],
      });
    }
    return {
      _aws: { Timestamp: at, CloudWatchMetrics: directives },
      Service: service,
      ...(reason ? { Reason: reason } : {}),
      ...Object.fromEntries(counted),
    };
  }
}
