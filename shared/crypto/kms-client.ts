import { KMSClient, type KMSClientConfig } from '@aws-sdk/client-kms';

/**
 * KMS answers Sign, GetPublicKey and Decrypt in tens of milliseconds. A connection or an answer that
 * takes far longer is lost, and the SDK's default is to wait for it without end: a route would spend
 * its whole function time (FUNCTION_TIMEOUT_SECONDS, 10 s) and end in API Gateway's bare 503 instead
 * of the service's error envelope. A request makes at most two KMS calls in a row (a cold container
 * signs with GetPublicKey, for the key id, then Sign), so each call gets two tries of at most 0.5 s
 * to connect and 1.5 s to answer: about 4.2 s a call with the retry's delay, 8.4 s for both. Two
 * tries rather than the SDK's three apply to throttling too (KMS_RETRY_DELAY_MS bounds the delay).
 */
export const KMS_TIMEOUTS = { connectionTimeout: 500, requestTimeout: 1_500 } as const;
export const KMS_MAX_ATTEMPTS = 2;
/** The standard retry strategy's longest first delay (its base, 100 ms, doubled, with full jitter). */
export const KMS_RETRY_DELAY_MS = 200;
/** KMS calls one request makes at most, one after another. */
export const KMS_CALLS_PER_REQUEST = 2;

/** The configuration of every KMS client of the service (signing keys and the sealing key). */
export function kmsClientConfig(region: string): KMSClientConfig {
  return {
    region,
    maxAttempts: KMS_MAX_ATTEMPTS,
    // Without throwOnRequestTimeout the SDK only logs a warning when the answer is late.
    requestHandler: { ...KMS_TIMEOUTS, throwOnRequestTimeout: true },
  };
}

export const kmsClient = (region: string) => new KMSClient(kmsClientConfig(region));
