import { http } from '../../shared/http/handler.ts';
import { routes } from '../../shared/routes.ts';
import { sessionInfo } from '../../shared/sessions/session-info.ts';

export const handler = http(routes.session, async ({ caller }) => ({ body: sessionInfo(caller) }));
