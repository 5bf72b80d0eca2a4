/**
 * The server's Worker: the platform on workerd, one Durable Object per sandbox. It answers CORS
 * preflights, guards a deployed sandbox's control API with its secret, and hands every other
 * request to the object of the sandbox the request names (`sandbox-routing.ts`), which runs the
 * HTTP app, the gateway and the event log together (`sandbox-object.ts`).
 */
import type { ServerEnv } from './env';
import { ApiError } from '../src/platform/core/errors';
import { errorResponse } from '../sw/http';
import { isPreflight, preflightResponse, withCors } from './cors';
import { PlatformSandbox } from './sandbox-object';
import {
  CONTROL_SECRET_HEADER,
  controlSecretMatches,
  isControlPath,
  SANDBOX_HEADER,
  type SandboxTarget,
  sandboxOf,
} from './sandbox-routing';

export { PlatformSandbox };
export type { ServerEnv };

/** 401 for a control API request without the deployment's secret. */
function controlRefused(): Response {
  return Response.json(
    { code: 0, message: `401: Unauthorized (this sandbox's control API needs its secret in ${CONTROL_SECRET_HEADER})` },
    { status: 401 },
  );
}

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
    if (!target) return withCors(errorResponse(ApiError.of('UNKNOWN_ROUTE')));
    const secret = env.SANDBOX_CONTROL_SECRET;
    const guarded = Boolean(secret) || env.SANDBOX_CONTROL_REQUIRES_SECRET === 'true';
    if (guarded && isControlPath(target.path)) {
      const given = request.headers.get(CONTROL_SECRET_HEADER);
      if (!secret || !controlSecretMatches(given, secret)) return withCors(controlRefused());
    }
    return withCors(await toSandbox(request, env, target));
  },
};
