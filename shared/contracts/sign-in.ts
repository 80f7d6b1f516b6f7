import * as z from 'zod';

/** SPEC §4.3 start: the same answer whether or not the address has an account. */
export const StartResult = z.object({
  sent: z.literal(true),
  deviceCode: z.string().length(64),
  expiresIn: z.number().int(),
  interval: z.number().int(),
});

export const Approved = z.object({ approved: z.literal(true) });

export const PeekResult = z.object({ code: z.string() });
