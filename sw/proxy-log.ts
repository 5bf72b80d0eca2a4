/**
 * The activity proxy's log (`src/wire/proxy-log.ts`): each request an activity frame made
 * through the worker, once answered, becomes one record posted to the pages, where the host
 * page's RPC inspector shows it. The answer itself passes unchanged, but for the inside-only
 * header naming a URL mapping's target, which is taken off here.
 */
import { MAPPED_TARGET_HEADER, type ProxiedRequestRecord } from '../src/wire/proxy-log';
import { SERVED_BY_HEADER } from './app-frame';

/** Where records go (a BroadcastChannel's `postMessage`). */
export type ProxyLogPost = (record: ProxiedRequestRecord) => void;

/** The frame an activity's request came from: its page's URL carries `frame_id` (CONTRACT §5). */
function frameOf(request: Request): string | null {
  try {
    return request.referrer ? new URL(request.referrer).searchParams.get('frame_id') : null;
  } catch {
    return null;
  }
}

/**
 * `answer`, once it arrives, with its record posted. A request that failed (the network refused
 * a passed-through request) is recorded with status 0 and still fails as it would have. With
 * `proxied` false (a frame's request without `/.proxy/`), only what a URL mapping or the
 * platform answered is recorded: the activity's own files passing to the dev server are not.
 * @example event.respondWith(logProxied(request, answer, true, (r) => channel.postMessage(r)))
 */
export async function logProxied(
  request: Request,
  answer: Promise<Response>,
  proxied: boolean,
  post: ProxyLogPost,
): Promise<Response> {
  const started = performance.now();
  const url = new URL(request.url);
  const record = (status: number, target: string) =>
    (proxied || target !== 'network') &&
    post({
      type: 'proxied-request',
      frame_id: frameOf(request),
      method: request.method,
      path: url.pathname + url.search,
      target,
      status,
      duration_ms: performance.now() - started,
      at: Date.now(),
    });
  let response: Response;
  try {
    response = await answer;
  } catch (error) {
    record(0, 'network');
    throw error;
  }
  const mapped = response.headers.get(MAPPED_TARGET_HEADER);
  // A Response from the network or the cache has immutable headers; ours never carry the mark.
  if (mapped) response.headers.delete(MAPPED_TARGET_HEADER);
  record(response.status, mapped ?? (response.headers.has(SERVED_BY_HEADER) ? 'platform' : 'network'));
  return response;
}
