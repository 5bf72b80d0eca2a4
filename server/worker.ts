/**
 * The server's Worker: the platform on workerd, one Durable Object per sandbox. It answers CORS
 * preflights and hands every other request to the object of the sandbox the request names
 * (`sandbox-routing.ts`), which runs the HTTP app, the gateway and the event log together
 * (`sandbox-object.ts`). A deployment's control secret is checked there, by the app's one door
 * for every control route (`sw/control-door.ts`), not by path here.
 */
import type { ServerEnv } from './env';
import { ApiError } from '../src/platform/core/errors';
import { errorResponse } from '../sw/http';
import { isPreflight, preflightResponse, withCors } from './cors';
import { PlatformSandbox } from './sandbox-object';
import { discardUnreadBody } from './request-body';
import { SANDBOX_HEADER, type SandboxTarget, sandboxOf } from './sandbox-routing';

export { PlatformSandbox };
export type { ServerEnv };

/** Hands `request` to the object of `target`, naming the sandbox in a header only the Worker sets. */
function toSandbox(request: Request, env: ServerEnv, target: SandboxTarget): Promise<Response> {
  const headers = new Headers(request.headers);
  headers.set(SANDBOX_HEADER, target.name);
  const forwarded = new Request(request, { headers });
  return env.SANDBOXES.get(env.SANDBOXES.idFromName(target.name)).fetch(forwarded);
}

/** The Worker. */
export default {
  async fetch(request: Request, env: ServerEnv): Promise<Response> {
    if (isPreflight(request)) return preflightResponse(request);
    const target = sandboxOf(new URL(request.url));
    if (!target) {
      await discardUnreadBody(request);
      return withCors(errorResponse(ApiError.of('UNKNOWN_ROUTE')));
    }
    return withCors(await toSandbox(request, env, target));
  },
};
