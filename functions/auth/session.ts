import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/sessions/session.ts';
import { sessionInfo } from '../../shared/sessions/session-info.ts';

export const handler = http(routes.session, async ({ caller }) => ({ body: sessionInfo(caller) }));
