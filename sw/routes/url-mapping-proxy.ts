/**
 * The activity proxy's forwarding of URL mappings: `/.proxy/<prefix>/<rest>` goes to the
 * mapping's `https://<target>/<rest>` over the network, as the platform's proxy forwards it.
 * Without `/.proxy` only requests of an activity's own frame are forwarded (the page that asks
 * has the frame's `frame_id` and `instance_id` in its URL), so the platform's pages keep their
 * own paths. Whose mappings apply: the application of an activity page under
 * `/activities/<application_id>/`, else the one application whose mappings match.
 *
 * A proxy ticket (`discord_proxy_ticket` in the request's query or in the query of the page that
 * sent it, as the platform puts one in an activity's URL) is checked: a mapped request with an
 * unknown or expired one is 401, so an activity can exercise REQUEST_PROXY_TICKET_REFRESH
 * (the page's own files are no mapped requests and load whatever its URL holds); a valid one names the
 * application whose mappings apply, and never travels on to the target. A request without one
 * is forwarded as before.
 *
 * Only what is mapped is answered: anything else resolves to undefined and goes on as before
 * (the precache, the network). A target that cannot be reached (offline, or it refused the
 * browser's cross-origin request) is a 502 saying so: it is not the client's mistake.
 */
import type { PlatformContext } from '../../src/platform/core/context';
import { ApiError } from '../../src/platform/core/errors';
import { mapRequestPath, urlMappingsOf, type MappedTarget } from '../../src/platform/activities/url-mappings';
import { PROXY_TICKET_PARAM, proxyTicketHolder } from '../../src/platform/activities/proxy-tickets';
import { errorResponse } from '../http';
import { ownsPath, PROXY_PREFIX, stripProxyPrefix } from '../paths';
import { MAPPED_TARGET_HEADER } from '../../src/wire/proxy-log';

/** How a forwarded request reaches its target (the network's `fetch` by default). */
export type TargetFetch = (request: Request) => Promise<Response>;

/** Headers that belong to one hop (or to this origin) and are not sent on. */
const HOP_HEADERS = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'cookie', 'origin', 'referer'];

/** Who asks: the application of an activity page, and whether the page is an activity's frame. */
export interface MappingSource {
  applicationId: string | null;
  frame: boolean;
}

/**
 * The page a request comes from, as its referrer tells (same origin only).
 * @example sourceOf('http://x/activities/1/?frame_id=f&instance_id=i', 'http://x') // { applicationId: '1', frame: true }
 */
export function sourceOf(referrer: string, origin: string): MappingSource {
  // No referrer (workerd's requests have none): no page, and no exception thrown on every request.
  if (!referrer) return { applicationId: null, frame: false };
  let page: URL;
  try {
    page = new URL(referrer);
  } catch {
    return { applicationId: null, frame: false };
  }
  if (page.origin !== origin) return { applicationId: null, frame: false };
  const app = /^\/activities\/(\d{1,20})(?:\/|$)/.exec(stripProxyPrefix(page.pathname));
  return {
    applicationId: app?.[1] ?? null,
    frame: page.searchParams.has('frame_id') && page.searchParams.has('instance_id'),
  };
}

/** The target of a request under the mappings that apply, or null; 409 when applications disagree. */
async function targetOf(
  ctx: PlatformContext,
  path: string,
  search: string,
  source: MappingSource,
): Promise<MappedTarget | null> {
  const applications = source.applicationId
    ? [await ctx.db.get('applications', source.applicationId)].filter((a) => a !== undefined)
    : (await ctx.db.getAll('applications')).filter((a) => urlMappingsOf(a).length > 0);
  const targets = applications.map((a) => mapRequestPath(path, search, urlMappingsOf(a))).filter((t) => t !== null);
  if (new Set(targets.map((t) => t.url.href)).size > 1) {
    throw ApiError.of(
      'URL_MAPPING_AMBIGUOUS',
      `Several applications map ${path} to different targets: load the activity from /activities/<application_id>/ so the platform knows whose URL mappings apply.`,
    );
  }
  return targets[0] ?? null;
}

/** The proxy ticket a request carries: in its own query, else in its page's (same origin only). */
function ticketOf(url: URL, referrer: string): string | null {
  const own = url.searchParams.get(PROXY_TICKET_PARAM);
  if (own) return own;
  if (!referrer) return null;
  try {
    const page = new URL(referrer);
    return page.origin === url.origin ? page.searchParams.get(PROXY_TICKET_PARAM) : null;
  } catch {
    return null;
  }
}

/** Where a request goes under its URL mappings: a target, or the answer that refuses it. */
export type MappingResolution = { target: MappedTarget } | { refused: Response };

/**
 * The target of a request to `url` sent by the page `referrer`, under the mappings that apply;
 * null when none applies (or the path is the platform's). A request with an unknown or expired
 * proxy ticket, or one that several applications map differently, is refused.
 * @example const resolved = await resolveUrlMapping(ctx, new URL(request.url), request.referrer);
 */
export async function resolveUrlMapping(
  ctx: PlatformContext,
  url: URL,
  referrer: string,
): Promise<MappingResolution | null> {
  if (ownsPath(url)) return null;
  const proxied = url.pathname.startsWith(`${PROXY_PREFIX}/`);
  const referred = sourceOf(referrer, url.origin);
  if (!proxied && !referred.frame) return null;
  const ticket = ticketOf(url, referrer);
  const bare = new URL(url);
  // Deleting re-serializes the query: only when the ticket is there, so other queries pass as sent.
  if (bare.searchParams.has(PROXY_TICKET_PARAM)) bare.searchParams.delete(PROXY_TICKET_PARAM);
  // A valid ticket names whose mappings apply; an unknown or expired one refuses only what is mapped.
  const holder = ticket === null ? null : await proxyTicketHolder(ctx, ticket, referred.applicationId);
  const source = holder ? { ...referred, applicationId: holder.application_id } : referred;
  let target: MappedTarget | null;
  try {
    target = await targetOf(ctx, stripProxyPrefix(bare.pathname), bare.search, source);
  } catch (error) {
    return { refused: errorResponse(error) };
  }
  if (!target) return null;
  if (ticket !== null && !holder)
    return {
      refused: errorResponse(
        ApiError.of(
          'UNAUTHORIZED',
          'The proxy ticket is unknown or has expired: ask the platform for a new one with REQUEST_PROXY_TICKET_REFRESH.',
        ),
      ),
    };
  return { target };
}

/**
 * Sends `request` on to its mapping's target over this host's network: a page's, so that a
 * mapping to `http://localhost:<port>` reaches the developer's machine wherever the platform runs.
 * @example return forwardToMappedTarget(request, resolved.target);
 */
export async function forwardToMappedTarget(
  request: Request,
  target: MappedTarget,
  fetchTarget: TargetFetch = (r) => fetch(r),
): Promise<Response> {
  const headers = new Headers(request.headers);
  for (const name of HOP_HEADERS) headers.delete(name);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const outgoing = new Request(target.url, {
    method: request.method,
    headers,
    body: hasBody ? await request.arrayBuffer() : undefined,
    redirect: 'follow',
  });
  try {
    const response = await fetchTarget(outgoing);
    // A fetched response's headers are immutable: copy it so the app may add its own.
    const copy = new Response(response.body, response);
    // For the worker's proxy log only: the app and the worker's log take it off again.
    copy.headers.set(MAPPED_TARGET_HEADER, target.url.href);
    return copy;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return errorResponse(
      ApiError.of(
        'URL_MAPPING_UNREACHABLE',
        `The URL mapping ${target.prefix} → ${target.url.origin} could not reach its target (${detail}): the browser is offline, or the target refused this origin's cross-origin request. The platform forwards mapped requests over the network; offline they cannot arrive.`,
      ),
    );
  }
}

/**
 * Forwards `request` to its URL mapping's target; undefined when no mapping applies.
 * @example const forwarded = await forwardUrlMapping(ctx, request); if (forwarded) return forwarded;
 */
export async function forwardUrlMapping(
  ctx: PlatformContext,
  request: Request,
  fetchTarget: TargetFetch = (r) => fetch(r),
): Promise<Response | undefined> {
  const resolved = await resolveUrlMapping(ctx, new URL(request.url), request.referrer);
  if (!resolved) return undefined;
  return 'refused' in resolved ? resolved.refused : forwardToMappedTarget(request, resolved.target, fetchTarget);
}
