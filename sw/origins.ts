/**
 * The real platform's origins that an activity's page calls directly, and which the service
 * worker answers for the pages it controls (CONTRACT §6): its public API
 * (`https://discord.com/api/...`, with or without a version, as the public embedded-app SDK's
 * examples call it) and its CDN (`https://cdn.discordapp.com/...`: avatars, icons,
 * attachments). So an activity written for the real platform runs against the sandbox
 * unchanged, offline. Every other outside origin goes to the network untouched.
 */

/** Origins of the platform's public HTTP API (the client's release channels included). */
export const PLATFORM_API_ORIGINS: ReadonlySet<string> = new Set([
  'https://discord.com',
  'https://ptb.discord.com',
  'https://canary.discord.com',
  'https://discordapp.com',
  'https://ptb.discordapp.com',
  'https://canary.discordapp.com',
]);

/** Origins of the platform's CDN. */
export const PLATFORM_CDN_ORIGINS: ReadonlySet<string> = new Set([
  'https://cdn.discordapp.com',
  'https://media.discordapp.net',
]);

/** Which part of the platform answers a request to an outside origin. */
export type PlatformOrigin = 'api' | 'cdn';

/**
 * `'api'` for the platform API's `/api` paths on its public origin, `'cdn'` for its CDN, null
 * for everything else (other paths of the platform's site, other origins).
 * @example platformOriginOf(new URL('https://discord.com/api/users/@me')) // 'api'
 */
export function platformOriginOf(url: URL): PlatformOrigin | null {
  if (PLATFORM_API_ORIGINS.has(url.origin))
    return url.pathname === '/api' || url.pathname.startsWith('/api/') ? 'api' : null;
  return PLATFORM_CDN_ORIGINS.has(url.origin) ? 'cdn' : null;
}

/**
 * `request` addressed to the same path on `origin` (the page's own), with its method, headers
 * and body, so the platform's app answers it as it answers its own paths.
 * @example await app.fetch(await onOrigin(event.request, self.location.origin));
 */
export async function onOrigin(request: Request, origin: string): Promise<Request> {
  const url = new URL(request.url);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(new URL(url.pathname + url.search, origin), {
    method: request.method,
    headers: request.headers,
    body: hasBody ? await request.arrayBuffer() : undefined,
  });
}
