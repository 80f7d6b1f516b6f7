/**
 * A URL on the service: `path` (starting with `/`) under its base URL `issuer` (ISSUER), whether or
 * not the configured value ends with a slash. Tokens keep ISSUER itself as their `iss`.
 */
export const serviceUrl = (issuer: string, path: string): string => `${issuer.replace(/\/+$/, '')}${path}`;
