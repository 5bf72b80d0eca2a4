/**
 * What the sandbox page of `platformpp()` runs: the application (from the plugin's options,
 * else the project's Vite env, as the platform's activity starters name it), the activity page
 * it embeds, and the users it seeds. Pure, so the rules are tested without a dev server.
 */

/** The users every sandbox has; `/__platformpp/?as=bob` is Bob. The first is the default. */
export const SANDBOX_USERS = ['alice', 'bob', 'chen'] as const;

/** Where the plugin serves the sandbox's host page, service worker and scripts. */
export const SANDBOX_BASE = '/__platformpp/';

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
  /*
   * `server` (CONTRACT §6: `true` to start the platform server in this process, or the URL of
   * one already running) comes with the server; until then the sandbox runs in the browser.
   */
}

/** What the sandbox page is told (served inside its HTML). */
export interface SandboxPageConfig {
  application: { id: string | null; secret: string | null; name: string };
  activity: string;
  users: readonly string[];
  /** Why the application is not usable yet, for the page and the terminal; null when it is. */
  problem: string | null;
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
  return {
    application: {
      id: id ?? null,
      secret: secret ?? null,
      name: options.application?.name ?? firstOf(env, ENV_NAMES.name) ?? DEFAULT_APPLICATION_NAME,
    },
    activity: options.activity ?? base,
    users: SANDBOX_USERS,
    problem:
      id === undefined
        ? `No application id: set VITE_CLIENT_ID in your project's .env (your application's id, or any snowflake such as 1234567890123456789), or pass platformpp({ application: { id } }). The activity hands it to new DiscordSDK(...), and the sandbox creates its application with it.`
        : null,
  };
}
