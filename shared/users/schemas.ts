import * as z from 'zod/mini';
import { DisplayName } from '../identity/display-name.ts';

/**
 * The image string is at most 716800 chars, the image itself at most 500 KB (docs/api.md,
 * "Profile images").
 */
export const MAX_IMAGE_CHARS = 716_800;
export const MAX_IMAGE_BYTES = 500 * 1024;
/**
 * An image URL the user gives is kept on the profile items and returned in every session answer, so
 * it must stay small whatever length the string may have (716800 chars, sized for a data URL):
 * 8192, the longest URL CloudFront and common servers accept.
 */
export const MAX_IMAGE_URL_CHARS = 8192;

const magic: Record<string, (bytes: Buffer) => boolean> = {
  png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  gif: (b) =>
    b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a',
  webp: (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** Why an image value is refused, or null when it is acceptable. */
function imageProblem(value: string): string | null {
  if (value === '') return null;
  if (value.startsWith('data:')) {
    const match = /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]+={0,2})$/.exec(value);
    if (!match?.[1] || !match[2]) return 'a data URL must be a base64 PNG, JPEG, GIF or WebP image';
    const bytes = Buffer.from(match[2], 'base64');
    if (bytes.length > MAX_IMAGE_BYTES) return `the image is larger than ${MAX_IMAGE_BYTES / 1024} KB`;
    if (!magic[match[1]]?.(bytes)) return `the data is not a ${match[1].toUpperCase()} image`;
    return null;
  }
  try {
    return new URL(value).protocol === 'https:' ? null : 'an image URL must use https';
  } catch {
    return 'the image must be an https URL, an image data URL, or the empty string';
  }
}

/** An issue of the image field, raised inside its transform (zod/mini: pushed on the payload). */
const imageIssue = (ctx: { issues: unknown[] }, value: string, message: string) =>
  ctx.issues.push({ code: 'custom', message, input: value });

export const UpdateUserBody = z
  .strictObject({
    name: z.optional(DisplayName),
    image: z.optional(
      z.pipe(
        z.string().check(z.maxLength(MAX_IMAGE_CHARS)),
        z.transform((value: string, ctx) => {
          const problem = imageProblem(value);
          if (problem) {
            imageIssue(ctx, value, problem);
            return z.NEVER;
          }
          // Stored as ASCII: an https URL in its serialised form (non-ASCII percent-encoded, IDN as
          // punycode), so it is answered exactly as stored, and its length is what the profile item holds.
          const stored = value === '' || value.startsWith('data:') ? value : new URL(value).href;
          if (!value.startsWith('data:') && stored.length > MAX_IMAGE_URL_CHARS) {
            imageIssue(ctx, value, `an image URL is at most ${MAX_IMAGE_URL_CHARS} characters, encoded`);
            return z.NEVER;
          }
          return stored;
        }),
      ),
    ),
  })
  .check(
    z.refine((body) => body.name !== undefined || body.image !== undefined, {
      message: 'send at least one of name, image (the email cannot be changed)',
    }),
  );

export const RevokeSessionBody = z.object({ id: z.string().check(z.minLength(1), z.maxLength(200)) });
