import { http } from '../../shared/http/handler.ts';
import { signInReply } from '../../shared/http/sign-in-reply.ts';
import { routes } from '../../shared/routes.ts';
import { pollSignIn } from '../../shared/sign-in/poll.ts';
import { PollBody } from '../../shared/sign-in/schemas.ts';

// SPEC §5.6: poll reads no API key; the device code alone names the request and its scope.
export const handler = http(routes.codePoll, PollBody, async ({ deps, event, body, sourceIp, headers }) => {
  const result = await pollSignIn(deps, { ...body, sourceIp, userAgent: headers['user-agent'] ?? '' });
  return signInReply(deps, event, result);
});
