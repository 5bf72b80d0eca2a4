/**
 * The activity proxy for a page that joined a platform server: the server's URL mappings apply
 * (the server says where a request goes, `POST <server>/sandbox/url-mappings/resolve`), and the
 * request itself goes from this browser to the target, so that a mapping to
 * `http://localhost:<port>` reaches the developer's own machine wherever the server runs.
 */
import { ApiError } from '../src/platform/core/errors';
import type { JoinedServer } from '../src/wire/server-join';
import { SERVED_BY, SERVED_BY_HEADER } from './app-frame';
import { errorResponse } from './http';
import { ownsPath } from './paths';
import { forwardToMappedTarget, type TargetFetch } from './routes/url-mapping-proxy';

/** The server's answer to a resolve. */
interface Resolved {
  target: { url: string; prefix: string } | null;
}

/**
 * `request` forwarded by the server's URL mappings, or undefined when none applies.
 * @example const forwarded = await forwardMappedOnServer(request, joined); if (forwarded) return forwarded;
 */
export async function forwardMappedOnServer(
  request: Request,
  server: JoinedServer,
  fetchServer: TargetFetch = (r) => fetch(r),
  fetchTarget?: TargetFetch,
): Promise<Response | undefined> {
  if (ownsPath(new URL(request.url))) return undefined;
  let answer: Response;
  try {
    answer = await fetchServer(
      new Request(`${server.url}/sandbox/url-mappings/resolve`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: request.url, referrer: request.referrer }),
        mode: 'cors',
        credentials: 'omit',
      }),
    );
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const response = errorResponse(
      ApiError.of(
        'SERVER_UNREACHABLE',
        `The platform server ${server.url} could not be reached (${detail}) to say where the activity proxy sends this request.`,
      ),
    );
    response.headers.set(SERVED_BY_HEADER, SERVED_BY);
    return response;
  }
  // A refusal (an expired proxy ticket, mappings that disagree) is the page's answer.
  if (!answer.ok) return new Response(answer.body, answer);
  const { target } = (await answer.json()) as Resolved;
  if (!target) return undefined;
  return forwardToMappedTarget(request, { url: new URL(target.url), prefix: target.prefix }, fetchTarget);
}
