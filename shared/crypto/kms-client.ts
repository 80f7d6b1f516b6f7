import { KMSClient, type KMSClientConfig } from '@aws-sdk/client-kms';

/**
 * KMS answers Sign, GetPublicKey and Decrypt in tens of milliseconds. A connection or an answer that
 * takes far longer is lost, and the SDK's default is to wait for it without end: a route would spend
 * its whole function time (FUNCTION_TIMEOUT_SECONDS, 10 s) and end in API Gateway's bare 503 instead
 * of the service's error envelope. Two tries of at most 1 s to connect and 3 s to answer stay under it.
 */
export const KMS_TIMEOUTS = { connectionTimeout: 1_000, requestTimeout: 3_000 } as const;
export const KMS_MAX_ATTEMPTS = 2;

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
