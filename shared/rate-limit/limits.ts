/** SPEC §8. Exact sliding windows (rate-limit.ts), counted in DynamoDB so they hold across Lambda instances. */
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
   * Not in SPEC §8: per recipient mailbox across every scope, so many applications cannot flood one
   * inbox, yet one scope's starts never lock the address out of another (issue 7, item 7).
   */
  startPerMailbox: { bucket: 'start-to', max: 10, windowSeconds: 600 },
  /** Shared by verify and approve: one budget of code checks per IP. */
  codeCheckPerIp: { bucket: 'check-ip', max: 10, windowSeconds: 60 },
  pollPerIp: { bucket: 'poll-ip', max: 60, windowSeconds: 60 },
  /** Not in SPEC §8: peek is test tooling, but it still must not be a free oracle. */
  peekPerIp: { bucket: 'peek-ip', max: 60, windowSeconds: 60 },
  /** Not in SPEC §8 (issue 12): the recent-accounts routes, which read up to five profiles each. */
  recentAccountsPerIp: { bucket: 'recent-ip', max: 30, windowSeconds: 60 },
  /** Not in SPEC §8 (issue 12): social sign-in's start, which sends the browser to a provider. */
  socialStartPerIp: { bucket: 'social-start-ip', max: 10, windowSeconds: 60 },
  /** Not in SPEC §8 (issue 12): social sign-in's callback, which calls the provider. */
  socialCallbackPerIp: { bucket: 'social-callback-ip', max: 10, windowSeconds: 60 },
  /**
   * Not in SPEC §8 (issue 12): the application's social sign-in page, which reads the application
   * only (its recent accounts count against recentAccountsPerIp); as cheap as a recent-accounts list.
   */
  socialPagePerIp: { bucket: 'social-page-ip', max: 30, windowSeconds: 60 },
} as const satisfies Record<string, Limit>;
