/**
 * Seals secrets the service must read back (an application owner's OAuth client secret: docs/security.md,
 * "Provider client secrets"). Implemented by `KmsSecretSealer` (a KMS symmetric key, encryption context `{
 * applicationId }`) and `LocalSecretSealer` (AES-256-GCM with a key file in `.data/`, the application id as
 * additional authenticated data): a sealed secret opens only for the application it was sealed for, and a
 * changed byte fails to open.
 */
export interface SecretSealer {
  /** The sealed form of `plaintext` (text, safe to store), bound to `applicationId`. */
  seal(applicationId: string, plaintext: string): Promise<string>;
  /** The plaintext of `sealed`; rejects when it was sealed for another application or was changed. */
  open(applicationId: string, sealed: string): Promise<string>;
}
