/** An account (docs/api.md, "The managed User", without its management fields). */
export interface User {
  id: string;
  email: string;
  name: string | null;
  image: string | null;
  emailVerified: boolean;
  createdAt: string;
}

/** The `session` of a sign-in. `applicationId` is null for a platform session. */
export interface Session {
  id: string;
  applicationId: string | null;
  createdAt: string;
  expiresAt: string;
}

/** The answer of verify, poll and a social sign-in's exchange (and of `POST /auth/refresh`). */
export interface SignInResult {
  user: User;
  token: string;
  session: Session;
}

/** The providers of social sign-in (docs/social-sign-in.md); the application's owner enables each. */
export type SocialProvider = 'google' | 'github' | 'microsoft' | 'oidc';

/** The answer of `POST /auth/code/start`. */
export interface StartResult {
  sent: true;
  /** 64 hex characters: the handle `poll` needs. */
  deviceCode: string;
  /** Two words the email shows too: display them so the human approves the right request. */
  phrase: string;
  /** Seconds the code lives (600). */
  expiresIn: number;
  /** Seconds between polls (5). */
  interval: number;
}

/** The fields of an application any holder of its public key may see. */
export interface Application {
  id: string;
  name: string;
  logoUrl: string | null;
  branding: { primaryColor?: string; backgroundColor?: string };
}

/** The answer of `GET /auth/session` when a session is present. */
export interface SessionInfo {
  user: User;
  session: Session;
  application?: Application | null;
  /** Only for an impersonated session. */
  impersonation?: {
    id: string;
    actor: { userId: string; email: string };
    reason: string;
    startedAt: string;
    expiresAt: string;
  };
}

/** Lists are `{ items, page }`; the session and connection lists are unpaginated (`total`, `hasMore` null). */
export interface List<T> {
  items: T[];
  page: { limit: number; offset: number; total: number | null; hasMore: boolean | null };
}

export interface SessionSummary {
  id: string;
  /** The session this client holds. */
  current: boolean;
  device: string;
  ip: string;
  createdAt: string;
  expiresAt: string;
}

/** An OAuth grant the user authorized (a tool such as an MCP client) and has not revoked. */
export interface Connection {
  id: string;
  clientId: string;
  clientName: string;
  applicationId: string;
  resource: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string;
}

export interface Revoked {
  revoked: boolean;
  count?: number;
}
