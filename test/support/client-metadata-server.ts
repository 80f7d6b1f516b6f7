/**
 * The HTTPS host of client ID metadata documents for tests (a test CA from `selfsigned`): it lives in
 * bench/, which the calls bench also uses to drive the authorization routes, and tests may import.
 */
export {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
  testCertificates,
} from '../../fixtures/metadata-host.ts';
