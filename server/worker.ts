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

/**
 * The objects' ids by sandbox name: `idFromName` derives one by hashing, the same for a name at
 * every call, and an id (unlike a stub) is no I/O object, so one isolate keeps them for all its
 * requests. Bounded: a deployment's isolate sees few sandboxes, and a full map starts again.
 */
const objectIds = new Map<string, DurableObjectId>();
const OBJECT_IDS_MAX = 1024;

function objectIdOf(env: ServerEnv, name: string): DurableObjectId {
  let id = objectIds.get(name);
  if (!id) {
    if (objectIds.size >= OBJECT_IDS_MAX) objectIds.clear();
    id = env.SANDBOXES.idFromName(name);
    objectIds.set(name, id);
  }
  return id;
}

/** Hands `request` to the object of `target`, naming the sandbox in a header only the Worker sets. */
function toSandbox(request: Request, env: ServerEnv, target: SandboxTarget): Promise<Response> {
  // One copy of the request, its headers mutable (a copy of its own, not the client's).
  const forwarded = new Request(request);
  forwarded.headers.set(SANDBOX_HEADER, target.name);
  return env.SANDBOXES.get(objectIdOf(env, target.name)).fetch(forwarded);
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
