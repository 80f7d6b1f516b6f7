import { http } from '../../shared/http/handler.ts';
import { answerMcp } from '../../shared/mcp/endpoint.ts';
import * as routes from '../../shared/route-table/mcp/mcp.ts';

export const handler = http(routes.mcp, ({ deps, params, headers, body, client, remainingMs }) =>
  answerMcp(deps, {
    applicationId: params.applicationId,
    headers,
    message: body,
    origin: client.origin,
    client: { ip: client.ip, userAgent: client.userAgent },
    remainingMs,
  }),
);
