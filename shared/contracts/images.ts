import * as z from 'zod/mini';

/** Any id is looked up: one that is not an image id answers the same 404 as an unknown one. */
export const ImagePath = z.object({ id: z.string() });

/** RFC 9110 §13.1.2: a client that holds the image revalidates with its ETag. */
export const ConditionalGet = z.object({ 'if-none-match': z.optional(z.string()) });
