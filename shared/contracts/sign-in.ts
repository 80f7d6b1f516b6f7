import * as z from 'zod/mini';

/** SPEC §4.3 start: the same answer whether or not the address has an account. */
export const StartResult = z.object({
  sent: z.literal(true),
  deviceCode: z.string().check(z.length(64)),
  /**
   * Two words the email shows too: the human approves only the request whose phrase the agent
   * displays (issue 7, item 4). Not in SPEC §4.3; clients that ignore it lose nothing else.
   */
  phrase: z.string(),
  expiresIn: z.int(),
  interval: z.int(),
});

export const Approved = z.object({ approved: z.literal(true) });

export const PeekResult = z.object({ code: z.string() });
