/**
 * Which sandbox a request to the server is for, and what reaches it. One deployment holds many
 * sandboxes, one Durable Object each: `http://host/...` is the sandbox `default`, and
 * `http://host/s/<name>/...` the sandbox `<name>` (lower-case letters, digits and `-`, at most
 * 63). Pure: the Worker and unit tests call it alike.
 */
import { VOICE_SERVER_ENDPOINT } from '../src/platform/voice/join';
import { INSTANCE_SOCKET_PATH } from '../src/wire/instance-socket';
import { stripProxyPrefix } from '../sw/paths';

/** The sandbox a request reaches when its path names none. */
export const DEFAULT_SANDBOX = 'default';

/** The path prefix that names a sandbox: `/s/<name>`. */
export const SANDBOX_PATH_PREFIX = '/s/';

/** The header the Worker names the sandbox in when it hands a request to its object; a client's own is replaced. */
export const SANDBOX_HEADER = 'X-Platformpp-Sandbox';

const NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A request's sandbox: its name, the path it is served under, and the request's path inside it. */
export interface SandboxTarget {
  name: string;
  /** `''` for the default sandbox, `/s/<name>` for another. */
  basePath: string;
  /** The path inside the sandbox, without the activity proxy prefix (`/api/v10/users/@me`). */
  path: string;
}

/**
 * The sandbox `url` is for, or null when it names an invalid one (or `default` by prefix: the
 * default sandbox has one address, so the URLs it hands out are unique).
 * @example sandboxOf(new URL('http://h/s/team-a/api/v10/gateway')) // { name: 'team-a', basePath: '/s/team-a', path: '/api/v10/gateway' }
 */
export function sandboxOf(url: URL): SandboxTarget | null {
  const { pathname } = url;
  if (!pathname.startsWith(SANDBOX_PATH_PREFIX)) {
    return { name: DEFAULT_SANDBOX, basePath: '', path: stripProxyPrefix(pathname) };
  }
  const rest = pathname.slice(SANDBOX_PATH_PREFIX.length);
  const slash = rest.indexOf('/');
  const name = slash === -1 ? rest : rest.slice(0, slash);
  if (!NAME.test(name) || name === DEFAULT_SANDBOX) return null;
  const path = slash === -1 ? '/' : rest.slice(slash);
  return { name, basePath: `${SANDBOX_PATH_PREFIX}${name}`, path: stripProxyPrefix(path) };
}

/** The base path of the sandbox named `name`. */
export function basePathOf(name: string): string {
  return name === DEFAULT_SANDBOX ? '' : `${SANDBOX_PATH_PREFIX}${name}`;
}

/** The WebSocket services of a sandbox. */
export type SocketService = 'gateway' | 'voice' | 'instances';

/**
 * Which service a WebSocket upgrade is for: `/gateway`, `/voice` or the pages' instance socket
 * (`/activity-instances`), with or without a trailing `/` (libraries append one to the URL
 * `GET /gateway/bot` names, where the platform's has no path), any query; else null.
 */
export function socketServiceOf(request: Request, path: string | undefined): SocketService | null {
  if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket' || path === undefined) return null;
  const service = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  if (service === '/gateway') return 'gateway';
  if (service === VOICE_SERVER_ENDPOINT) return 'voice';
  if (service === INSTANCE_SOCKET_PATH) return 'instances';
  return null;
}
