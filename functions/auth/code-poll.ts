import { http } from '../../shared/http/handler.ts';
import { signInReply } from '../../shared/http/sign-in-reply.ts';
import * as routes from '../../shared/route-table/sign-in/code-poll.ts';
import { pollSignIn } from '../../shared/sign-in/poll.ts';

// Poll reads no API key; the device code alone names the request and its scope (docs/api.md, Endpoints).
export const handler = http(routes.codePoll, async ({ deps, body, client, remainingMs }) =>
  signInReply(
    deps,
    client.origin,
    await pollSignIn(deps, { ...body, sourceIp: client.ip, userAgent: client.userAgent, remainingMs }),
  ),
);
