/**
 * What the sandbox page of `platformpp()` runs: the application (from the plugin's options,
 * else the project's Vite env, as the platform's activity starters name it), the activity page
 * it embeds, the users it seeds, and the platform server it joins, if any. Pure, so the rules
 * are tested without a dev server.
 */
import { normalizeServerUrl } from '../wire/server-join';

/** The users every sandbox has; `/__platformpp/?as=bob` is Bob. The first is the default. */
export const SANDBOX_USERS = ['alice', 'bob', 'chen'] as const;

/** Where the plugin serves the sandbox's host page, service worker and scripts. */
export const SANDBOX_BASE = '/__platformpp/';

/**
 * Where the host page reaches a platform server through the plugin when the server wants a
 * control secret: the plugin's relay adds the secret, so the page never holds it.
 */
export const SERVER_RELAY_PATH = `${SANDBOX_BASE}server`;

/** The env name of a deployed platform server's control secret, as `platformpp-web serve` reads it too. */
export const CONTROL_SECRET_ENV = 'PLATFORMPP_CONTROL_SECRET';

/** The application's name when neither the options nor the env give one. */
export const DEFAULT_APPLICATION_NAME = 'My Activity';

/**
 * The env names read for the application, first found wins: the embedded-app SDK's starter
 * (`VITE_CLIENT_ID`, `CLIENT_SECRET`) and the getting-started activity (`VITE_DISCORD_CLIENT_ID`,
 * `DISCORD_CLIENT_SECRET`).
 */
export const ENV_NAMES = {
  id: ['VITE_CLIENT_ID', 'VITE_DISCORD_CLIENT_ID'],
  secret: ['CLIENT_SECRET', 'DISCORD_CLIENT_SECRET'],
  name: ['VITE_APPLICATION_NAME'],
} as const;

/** The options of `platformpp()`. */
export interface PlatformppOptions {
  /** The sandbox application; each field overrides what the project's `.env` says. */
  application?: {
    /** Its id: the `client_id` the activity passes to `new DiscordSDK(...)` (a snowflake string). */
    id?: string;
    /** Its client secret, for a backend that exchanges authorization codes (8-128 printable characters). */
    secret?: string;
    /** The name the consent dialog shows. */
    name?: string;
  };
  /**
   * The activity page the sandbox embeds: a path of this server (default: the project's `base`,
   * usually `/`), or a URL on another origin that allows being framed.
   */
  activity?: string;
  /**
   * The platform server the sandbox page and the activity use instead of the browser's own
   * sandbox (CONTRACT §6, §7): `true` starts one in the dev server's process (Miniflare, an
   * optional peer dependency) and prints its URL; a URL (`'http://127.0.0.1:8787'`) uses one
   * already running. The activity's backend then reaches the same platform at that URL
   * (`<url>/api/oauth2/token`). Default: none, the platform runs in the browser.
   */
  server?: boolean | string;
  /**
   * The control secret of the platform server `server: '<url>'` names, when it is deployed with
   * one (CONTRACT §7): the plugin sends it with the requests it relays to that server, from the
   * host page and from the activity's backend, and never puts it in a page. Default: the
   * project's env `PLATFORMPP_CONTROL_SECRET`.
   */
  controlSecret?: string;
}

/** What the sandbox page is told (served inside its HTML). */
export interface SandboxPageConfig {
  application: { id: string | null; secret: string | null; name: string };
  activity: string;
  users: readonly string[];
  /** Why the application is not usable yet, for the page and the terminal; null when it is. */
  problem: string | null;
  /** The platform server the page joins (`platformpp({ server })`), or null for the browser's own sandbox. */
  server: string | null;
  /**
   * The path of this origin the page reaches that server through ({@link SERVER_RELAY_PATH},
   * when it wants a control secret), or null to reach it directly.
   */
  serverPath: string | null;
  /** Why the platform server of `platformpp({ server: true })` is not there: the page then does not start. */
  serverError: string | null;
  /**
   * True when the page joins a platform server and the developer gave a client secret: the
   * plugin holds it and sets it on the server's application itself (`POST
   * /__platformpp/application-secret`), so the page, which other devices may open, never carries it.
   */
  secretHeldByPlugin: boolean;
}

/** Where the page asks the plugin to set the client secret it holds on the server's application. */
export const APPLICATION_SECRET_PATH = `${SANDBOX_BASE}application-secret`;

/**
 * The client secret the developer gave (options or `.env`), or null.
 * @example clientSecretOf({}, { CLIENT_SECRET: 's3cret-value' }) // 's3cret-value'
 */
export function clientSecretOf(options: PlatformppOptions, env: Record<string, string | undefined>): string | null {
  return options.application?.secret ?? firstOf(env, ENV_NAMES.secret) ?? null;
}

/**
 * What `platformpp({ server })` asks for: a server to start, one to use, or none.
 * @example platformServerOption({ server: 'http://127.0.0.1:8787/' }) // { use: 'http://127.0.0.1:8787' }
 */
export function platformServerOption(options: PlatformppOptions): { start: true } | { use: string } | null {
  const { server } = options;
  if (server === undefined || server === false) return null;
  if (server === true) return { start: true };
  if (typeof server !== 'string')
    throw new Error('platformpp({ server }) is true (start the platform server here) or the URL of one running');
  try {
    return { use: normalizeServerUrl(server) };
  } catch (error) {
    throw new Error(`platformpp({ server }): ${(error as Error).message}`);
  }
}

/**
 * The control secret the plugin sends to the platform server it uses, or null: from the options,
 * else the project's env. Only a server given by URL can want one (a server the plugin starts has none).
 * @example controlSecretOf({ server: 'https://sandbox.example.com' }, { PLATFORMPP_CONTROL_SECRET: 's3cret' }) // 's3cret'
 */
export function controlSecretOf(options: PlatformppOptions, env: Record<string, string | undefined>): string | null {
  const server = platformServerOption(options);
  if (!server || !('use' in server)) return null;
  const secret = options.controlSecret ?? env[CONTROL_SECRET_ENV]?.trim();
  if (secret === undefined || secret === '') return null;
  if (!/^[\x21-\x7e]+$/.test(secret))
    throw new Error(
      `platformpp: the control secret (${CONTROL_SECRET_ENV}) must be printable characters without spaces`,
    );
  return secret;
}

const SNOWFLAKE = /^\d{1,20}$/;
const SECRET = /^[\x21-\x7e]{8,128}$/;

function firstOf(env: Record<string, string | undefined>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/**
 * The sandbox page's settings from the plugin's options and the project's env (every variable,
 * not only `VITE_` ones: `CLIENT_SECRET` stays out of the activity's bundle). A malformed id or
 * secret is an error naming where it came from.
 * @example sandboxPageConfig({}, { VITE_CLIENT_ID: '1234567890123456789' }, '/')
 */
export function sandboxPageConfig(
  options: PlatformppOptions,
  env: Record<string, string | undefined>,
  base: string,
): SandboxPageConfig {
  const id = options.application?.id ?? firstOf(env, ENV_NAMES.id);
  const secret = options.application?.secret ?? firstOf(env, ENV_NAMES.secret);
  const idSource =
    options.application?.id !== undefined ? 'platformpp({ application: { id } })' : ENV_NAMES.id.join(' / ');
  if (id !== undefined && !SNOWFLAKE.test(id))
    throw new Error(`platformpp: ${idSource} is "${id}", which is no application id (a snowflake: 1 to 20 digits)`);
  if (secret !== undefined && !SECRET.test(secret))
    throw new Error('platformpp: the client secret must be 8 to 128 printable characters without spaces');
  const server = platformServerOption(options);
  return {
    application: {
      id: id ?? null,
      // On a platform server the page may be opened from other devices: the plugin keeps the secret.
      secret: server ? null : (secret ?? null),
      name: options.application?.name ?? firstOf(env, ENV_NAMES.name) ?? DEFAULT_APPLICATION_NAME,
    },
    activity: options.activity ?? base,
    users: SANDBOX_USERS,
    server: server && 'use' in server ? server.use : null,
    serverPath: controlSecretOf(options, env) === null ? null : SERVER_RELAY_PATH,
    serverError: null,
    secretHeldByPlugin: server !== null && secret !== undefined,
    problem:
      id === undefined
        ? `No application id: set VITE_CLIENT_ID in your project's .env (your application's id, or any snowflake such as 1234567890123456789), or pass platformpp({ application: { id } }). The activity hands it to new DiscordSDK(...), and the sandbox creates its application with it.`
        : null,
  };
}
