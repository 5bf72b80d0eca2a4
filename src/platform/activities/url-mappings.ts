/**
 * An application's URL mappings, as its developer sets them for the activity proxy: a request
 * of the activity to `/.proxy/<prefix>/<rest>` (or `/<prefix>/<rest>` from the activity's own
 * frame) goes to `https://<target>/<rest>`. `{name}` tokens in the prefix each match one path
 * segment and fill the same tokens in the target's host or port. A prefix may not be one of the
 * platform's own paths, which the service worker answers itself (`/api`, `/sandbox`, ...).
 *
 * A target is a host without a scheme, reached over https, as in the developer portal. For a
 * server on the developer's own machine (a local dev server or backend) it may also be
 * `http://localhost:<port>` or `http://127.0.0.1:<port>`, optionally with a path: plain http,
 * which no other host gets.
 */
import { platformPathCollision } from '../../wire/paths';
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { URL_MAPPINGS_MAX } from '../core/limits';
import type { ApplicationRecord } from '../../store/records/core';
import type { UrlMapping } from '../../wire/paths';

export type { UrlMapping };

const TOKEN = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
/** A target: a host (labels, dots, `{tokens}`), an optional port (digits or a token), an optional path. */
const TARGET =
  /^(?:[A-Za-z0-9-]+|\{[A-Za-z_][A-Za-z0-9_]*\})(?:\.(?:[A-Za-z0-9-]+|\{[A-Za-z_][A-Za-z0-9_]*\}))*(?::(?:\d{1,5}|\{[A-Za-z_][A-Za-z0-9_]*\}))?(?:\/[^\s?#]*)?$/;
/** A local target: plain http to this machine, with an optional port and path. */
const LOCAL_TARGET = /^http:\/\/(?:localhost|127\.0\.0\.1)(?::\d{1,5})?(?:\/[^\s?#]*)?$/;
const LOCAL_SCHEME = 'http://';

/** A prefix: a path of segments (letters, digits, `-._~`, or a whole `{token}`). */
const PREFIX = /^(?:\/(?:[A-Za-z0-9._~-]+|\{[A-Za-z_][A-Za-z0-9_]*\}))+\/?$/;

/** A mapping's prefix without a leading `/.proxy` or trailing slashes: how requests are matched. */
export function normalizedPrefix(prefix: string): string {
  return prefix.replace(/^\/\.proxy(?=\/|$)/, '').replace(/\/+$/, '') || '/';
}

function tokenNames(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((m) => m[1]);
}

/**
 * Checks a whole set of mappings: each field in the error is `url_mappings.<i>.prefix` or
 * `.target`. Nothing is stored when one is wrong.
 */
export function validateUrlMappings(mappings: readonly UrlMapping[]): void {
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  if (mappings.length > URL_MAPPINGS_MAX) errors.url_mappings = `Must be ${URL_MAPPINGS_MAX} or fewer in length.`;
  mappings.forEach(({ prefix, target }, i) => {
    const taken = platformPathCollision(prefix);
    const normal = normalizedPrefix(prefix);
    if (!PREFIX.test(prefix) || normal === '/')
      errors[`url_mappings.${i}.prefix`] =
        'Must be a path such as /scores or /maps/{region}: segments of letters, digits, -._~ or one {token}.';
    else if (taken)
      errors[`url_mappings.${i}.prefix`] =
        `Collides with the platform's own ${taken}/ path, which the platform answers itself: choose another prefix.`;
    else if (seen.has(normal)) errors[`url_mappings.${i}.prefix`] = 'Another mapping has this prefix.';
    seen.add(normal);
    if (!TARGET.test(target) && !LOCAL_TARGET.test(target))
      errors[`url_mappings.${i}.target`] =
        'Must be a host with an optional port and path, without a scheme, such as api.example.com or {region}.example.com/v2; or, for a server on this machine, http://localhost:<port> or http://127.0.0.1:<port>.';
    const missing = tokenNames(target).filter((name) => !tokenNames(prefix).includes(name));
    if (missing.length > 0 && !errors[`url_mappings.${i}.target`])
      errors[`url_mappings.${i}.target`] = `Uses {${missing[0]}}, which the prefix does not capture.`;
  });
  if (Object.keys(errors).length > 0) throw ApiError.invalidForm(errors);
}

/**
 * Replaces an application's URL mappings (validated first: a bad one stores nothing).
 * @example await setUrlMappings(ctx, appId, [{ prefix: '/scores', target: 'api.example.com' }]);
 */
export async function setUrlMappings(
  ctx: PlatformContext,
  applicationId: string,
  mappings: UrlMapping[],
): Promise<UrlMapping[]> {
  validateUrlMappings(mappings);
  return write(ctx, ['applications'], async (tx) => {
    const application = await tx.store('applications').get(applicationId);
    if (!application) throw ApiError.of('UNKNOWN_APPLICATION');
    const stored = mappings.map(({ prefix, target }) => ({ prefix, target }));
    await tx.store('applications').put({ ...application, url_mappings: stored });
    return stored;
  });
}

/** An application's URL mappings (none until set). */
export function urlMappingsOf(application: ApplicationRecord): UrlMapping[] {
  return application.url_mappings ?? [];
}

/** Where a request goes: the target URL, and the mapping's prefix as matched. */
export interface MappedTarget {
  url: URL;
  prefix: string;
}

/**
 * The target of `path` (without `/.proxy`) and `search` under the mapping with the longest
 * matching prefix, or null when none matches.
 * @example mapRequestPath('/maps/eu/tile', '?z=1', [{ prefix: '/maps/{region}', target: '{region}.maps.example.com' }]) // https://eu.maps.example.com/tile?z=1
 */
export function mapRequestPath(path: string, search: string, mappings: readonly UrlMapping[]): MappedTarget | null {
  let best: { mapping: UrlMapping; match: RegExpExecArray; length: number } | null = null;
  for (const mapping of mappings) {
    const prefix = normalizedPrefix(mapping.prefix);
    const pattern = prefix
      .split('/')
      .map((segment) => segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(TOKEN, '(?<$1>[\\w-]+)'))
      .join('/');
    const match = new RegExp(`^${pattern}(?=/|$)`).exec(path);
    if (match && (!best || match[0].length > best.length)) best = { mapping, match, length: match[0].length };
  }
  if (!best) return null;
  const groups = best.match.groups ?? {};
  const filled = best.mapping.target.replace(TOKEN, (_token, name: string) => groups[name] ?? '');
  const local = filled.startsWith(LOCAL_SCHEME);
  const target = local ? filled.slice(LOCAL_SCHEME.length) : filled;
  const slash = target.indexOf('/');
  const host = slash < 0 ? target : target.slice(0, slash);
  const base = slash < 0 ? '' : target.slice(slash).replace(/\/+$/, '');
  const url = new URL(`${local ? 'http' : 'https'}://${host}`);
  url.pathname = `${base}${path.slice(best.length)}` || '/';
  url.search = search;
  return { url, prefix: best.mapping.prefix };
}

/** The URL mappings of application `applicationId` (none until set); 404 (10002) for an unknown application. */
export async function getUrlMappings(ctx: PlatformContext, applicationId: string): Promise<UrlMapping[]> {
  const application = await ctx.db.get('applications', applicationId);
  if (!application) throw ApiError.of('UNKNOWN_APPLICATION');
  return urlMappingsOf(application);
}
