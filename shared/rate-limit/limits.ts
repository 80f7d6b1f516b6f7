/**
 * docs/security.md, "Rate limits". Exact sliding windows (rate-limit.ts), counted in DynamoDB so they hold
 * across Lambda instances.
 */
export interface Limit {
  bucket: string;
  max: number;
  windowSeconds: number;
}

export const limits = {
  startPerIp: { bucket: 'start-ip', max: 5, windowSeconds: 60 },
  /** Per recipient mailbox in one scope (the platform, or one application). */
  startPerRecipient: { bucket: 'start-to-scope', max: 3, windowSeconds: 600 },
  /**
   * Per recipient mailbox across every scope, so many applications cannot flood one inbox, yet one
   * scope's starts never lock the address out of another (docs/security.md, "Rate limits").
   */
  startPerMailbox: { bucket: 'start-to', max: 10, windowSeconds: 600 },
  /** Shared by verify and approve: one budget of code checks per IP. */
  codeCheckPerIp: { bucket: 'check-ip', max: 10, windowSeconds: 60 },
  pollPerIp: { bucket: 'poll-ip', max: 60, windowSeconds: 60 },
  /** Peek is test tooling, but it still must not be a free oracle. */
  peekPerIp: { bucket: 'peek-ip', max: 60, windowSeconds: 60 },
  /** The recent-accounts routes, which read up to five profiles each (docs/api.md, "Recent accounts"). */
  recentAccountsPerIp: { bucket: 'recent-ip', max: 30, windowSeconds: 60 },
  /** Social sign-in's start, which sends the browser to a provider. */
  socialStartPerIp: { bucket: 'social-start-ip', max: 10, windowSeconds: 60 },
  /** Social sign-in's callback, which calls the provider. */
  socialCallbackPerIp: { bucket: 'social-callback-ip', max: 10, windowSeconds: 60 },
  /**
   * The application's social sign-in page (docs/api.md, "Social sign-in page"), which reads the application
   * only (its recent accounts count against recentAccountsPerIp); as cheap as a recent-accounts list.
   */
  socialPagePerIp: { bucket: 'social-page-ip', max: 30, windowSeconds: 60 },
} as const satisfies Record<string, Limit>;
