/**
 * URL mappings: an activity's requests to outside hosts go through its own origin under a
 * prefix (`https://api.example.com/x` → `/api/x`), as the platform's activity proxy expects.
 * `target` is a host (with an optional port and path) whose `{name}` tokens match one label or
 * port; `prefix` is a path whose `{name}` tokens take the matched values. Requests work with
 * and without the `/.proxy/` prefix (spec, Versioning rule 7): a mapping may use either.
 *
 * A target for a server on the developer's own machine may carry plain http:
 * `http://localhost:<port>` or `http://127.0.0.1:<port>` match only `http:` and `ws:` URLs.
 *
 * A prefix may not be one of the platform's own paths (`/api`, `/sandbox`, `/oauth2`,
 * `/attachments`, `/activities`, with or without `/.proxy`): the service worker answers those
 * itself, so a mapping there would never reach its target. Host names are case-insensitive;
 * `{Token}` names are not.
 */

import { platformPathCollision, type UrlMapping } from '../wire/paths';

export { PLATFORM_PATH_PREFIXES, platformPathCollision } from '../wire/paths';
export type { UrlMapping };

/** What {@link patchUrlMappings} patches: `window` by default. */
export interface PatchTarget {
  fetch: typeof fetch;
  WebSocket: typeof WebSocket;
  XMLHttpRequest: typeof XMLHttpRequest;
  location: { protocol: string; host: string; href: string };
}

const TOKEN = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Throws when a mapping's prefix is one of the platform's own paths, saying which.
 * @example assertNoPlatformCollision([{ prefix: '/scores', target: 'api.example.com' }]);
 */
export function assertNoPlatformCollision(mappings: readonly UrlMapping[]): void {
  for (const { prefix, target } of mappings) {
    const taken = platformPathCollision(prefix);
    if (taken)
      throw new Error(
        `URL mapping prefix ${prefix} (for ${target}) collides with the platform's own ${taken}/ path, which the platform answers itself: choose another prefix`,
      );
  }
}

/** A host pattern lowercased outside its `{Token}`s: host names ignore case, token names do not. */
function lowerHostPattern(pattern: string): string {
  let out = '';
  let last = 0;
  for (const match of pattern.matchAll(TOKEN)) {
    out += pattern.slice(last, match.index).toLowerCase() + match[0];
    last = match.index + match[0].length;
  }
  return out + pattern.slice(last).toLowerCase();
}
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A regex for a pattern whose `{name}` tokens capture one label (letters, digits, `-`, `_`). */
function patternRegExp(pattern: string): string {
  let out = '';
  let last = 0;
  for (const match of pattern.matchAll(TOKEN)) {
    out += escapeRegExp(pattern.slice(last, match.index)) + `(?<${match[1]}>[\\w-]+)`;
    last = match.index + match[0].length;
  }
  return out + escapeRegExp(pattern.slice(last));
}

/**
 * Rewrites `url` by one mapping, or returns null when the mapping does not apply. The host
 * (with its port) must match `target` exactly; dots are dots, not wildcards.
 * @example
 * matchAndRewriteURL({ url: new URL('https://eu.api.example.com/v1/x'), prefix: '/api/{region}', target: '{region}.api.example.com', location })
 * // → https://<activity host>/api/eu/v1/x
 */
export function matchAndRewriteURL(options: {
  url: URL;
  prefix: string;
  target: string;
  location: PatchTarget['location'];
}): URL | null {
  const { url, location } = options;
  if (url.host === location.host) return null;
  // `http://localhost:5173`: a local server, reached over plain http (or ws) only.
  const local = /^http:\/\//.test(options.target);
  if (local && url.protocol !== 'http:' && url.protocol !== 'ws:') return null;
  const target = local ? options.target.slice('http://'.length) : options.target;
  const slash = target.indexOf('/');
  const targetHost = lowerHostPattern(slash < 0 ? target : target.slice(0, slash));
  const targetPath = slash < 0 ? '' : target.slice(slash).replace(/\/+$/, '');
  const host = new RegExp(`^${patternRegExp(targetHost)}$`).exec(url.host.toLowerCase());
  if (!host) return null;
  if (targetPath && url.pathname !== targetPath && !url.pathname.startsWith(`${targetPath}/`)) return null;
  const prefix = options.prefix.replace(TOKEN, (_token, name: string) => {
    const value = host.groups?.[name];
    if (value === undefined)
      throw new Error(
        `URL mapping prefix ${options.prefix} uses {${name}}, which its target ${options.target} does not capture`,
      );
    return value;
  });
  const rest = url.pathname.slice(targetPath.length);
  const mapped = new URL(location.href);
  // A secure page reaches its proxy over https and wss; a local one over http and ws.
  const secure = location.protocol === 'https:';
  mapped.protocol = url.protocol === 'ws:' || url.protocol === 'wss:' ? (secure ? 'wss:' : 'ws:') : location.protocol;
  mapped.host = location.host;
  mapped.pathname = `/${prefix.replace(/^\/+|\/+$/g, '')}${rest.startsWith('/') ? rest : `/${rest}`}`.replace(
    /\/{2,}/g,
    '/',
  );
  mapped.search = url.search;
  mapped.hash = url.hash;
  return mapped;
}

/**
 * `url` rewritten by the first mapping that applies, or unchanged. Relative URLs resolve
 * against the page.
 * @example attemptRemap({ url: 'https://cdn.example.com/a.png', mappings: [{ prefix: '/cdn', target: 'cdn.example.com' }] })
 */
export function attemptRemap(options: {
  url: string | URL;
  mappings: readonly UrlMapping[];
  location?: PatchTarget['location'];
}): URL {
  const location = options.location ?? globalThis.location;
  const url = new URL(options.url, location.href);
  for (const mapping of options.mappings) {
    const mapped = matchAndRewriteURL({ url, prefix: mapping.prefix, target: mapping.target, location });
    if (mapped) return mapped;
  }
  return url;
}

/**
 * Sends the page's `fetch`, `WebSocket` and `XMLHttpRequest` requests through the mappings.
 * Returns a function that undoes the patch. Throws when a prefix is one of the platform's own
 * paths ({@link PLATFORM_PATH_PREFIXES}).
 * @example
 * const restore = patchUrlMappings([{ prefix: '/scores', target: 'api.example.com' }]);
 * await fetch('https://api.example.com/top'); // requests /scores/top on the activity's origin
 */
export function patchUrlMappings(
  mappings: readonly UrlMapping[],
  options: { patchFetch?: boolean; patchWebSocket?: boolean; patchXhr?: boolean; target?: PatchTarget } = {},
): () => void {
  assertNoPlatformCollision(mappings);
  const target = options.target ?? (globalThis as unknown as PatchTarget);
  const remap = (url: string | URL) => attemptRemap({ url, mappings, location: target.location });
  const undo: (() => void)[] = [];

  if (options.patchFetch !== false) {
    const original = target.fetch;
    target.fetch = async (input, init) => {
      if (!(input instanceof Request)) return original.call(globalThis, remap(input), init);
      const mapped = remap(input.url);
      if (mapped.href === input.url) return original.call(globalThis, input, init);
      // A Request cannot change its URL: make a new one with everything else of the original.
      const body = input.method === 'GET' || input.method === 'HEAD' ? undefined : await input.clone().arrayBuffer();
      const copy = new Request(mapped, {
        method: input.method,
        headers: input.headers,
        body,
        credentials: input.credentials,
        cache: input.cache,
        redirect: input.redirect,
        referrer: input.referrer,
        referrerPolicy: input.referrerPolicy,
        integrity: input.integrity,
        keepalive: input.keepalive,
        signal: input.signal,
      });
      return original.call(globalThis, copy, init);
    };
    undo.push(() => (target.fetch = original));
  }

  if (options.patchWebSocket !== false) {
    const Original = target.WebSocket;
    target.WebSocket = class extends Original {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(remap(url), protocols);
      }
    };
    undo.push(() => (target.WebSocket = Original));
  }

  if (options.patchXhr !== false) {
    const prototype = target.XMLHttpRequest.prototype;
    const open = prototype.open;
    prototype.open = function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
      return (open as (...args: unknown[]) => void).call(this, method, remap(url).href, ...rest);
    } as typeof prototype.open;
    undo.push(() => (prototype.open = open));
  }

  return () => {
    for (const step of undo.reverse()) step();
  };
}
