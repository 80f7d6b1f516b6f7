import * as z from 'zod/mini';

/** Start: the same answer whether or not the address has an account (docs/security.md, Sign-in codes). */
export const StartResult = z.object({
  sent: z.literal(true),
  deviceCode: z.string().check(z.length(64)),
  /**
   * Two words the email shows too: the human approves only the request whose phrase the agent
   * displays (docs/api.md, The headless path and the request phrase); clients that ignore it lose
   * nothing else.
   */
  phrase: z.string(),
  expiresIn: z.int(),
  interval: z.int(),
});

export const Approved = z.object({ approved: z.literal(true) });

export const PeekResult = z.object({ code: z.string() });
