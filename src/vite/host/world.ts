/**
 * The sandbox's world, made through the platform's own sandbox API on the first visit: the
 * users (alice, bob, chen), the application with the developer's own id and client secret,
 * and a guild they all belong to, with its voice channel where the activity runs. The page
 * remembers what it made (localStorage; in the sandbox itself, a fixture set, when the page
 * joined a platform server, so that every browser on it finds the same world) and checks it
 * against the platform on every visit:
 * after a reset, or when the `.env` names another application, it seeds again; a changed
 * secret is set on the application. Tabs take turns through a Web Lock, so two tabs opened at
 * once seed once.
 */
import { SandboxError, type SandboxClient } from '../../components/sandbox-client';
import type { SandboxPageConfig } from '../options';

/** What the host page runs on. */
export interface SandboxWorld {
  version: 1;
  application_id: string;
  /** SHA-256 of the client secret the application was given (the secret itself is not kept). */
  secret_sha256: string | null;
  /** User ids by username. */
  users: Record<string, string>;
  guild_id: string;
  channel_id: string;
}

/** Where the page keeps the world it made. */
export const WORLD_KEY = 'platformpp:sandbox-world';
/** The fixture set the world is recorded in on a platform server. */
export const WORLD_FIXTURE_SET = 'platformpp-vite-sandbox-world';

/** Where the record of the world is kept. */
export interface WorldRecord {
  load(): Promise<SandboxWorld | null>;
  save(world: SandboxWorld): Promise<void>;
}

/** The record in this browser (`localStorage`). */
export function browserWorldRecord(storage: Storage): WorldRecord {
  return {
    load: async () => remembered(storage),
    save: async (world) => storage.setItem(WORLD_KEY, JSON.stringify(world)),
  };
}

/** The record in the sandbox (a fixture set), shared by every browser that joins its server. */
export function sandboxWorldRecord(sandbox: SandboxClient): WorldRecord {
  return {
    load: async () => {
      const world = (await sandbox.getFixtureSet(WORLD_FIXTURE_SET))?.value as SandboxWorld | undefined;
      return world?.version === 1 ? world : null;
    },
    save: async (world) =>
      void (await sandbox.putFixtureSet(WORLD_FIXTURE_SET, world as unknown as Record<string, unknown>)),
  };
}
/** The Web Lock two tabs take turns on. */
const SEED_LOCK = 'platformpp:sandbox-seed';
/** The guild the users share. */
export const SANDBOX_GUILD_NAME = 'platformpp Sandbox';
/** Voice channels are type 2 (GUILD_VOICE). */
const GUILD_VOICE = 2;

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function remembered(storage: Storage): SandboxWorld | null {
  try {
    const world = JSON.parse(storage.getItem(WORLD_KEY) ?? 'null') as SandboxWorld | null;
    return world?.version === 1 ? world : null;
  } catch {
    return null;
  }
}

/** True when the platform still knows every user and the application of `world`. */
async function stillThere(sandbox: SandboxClient, world: SandboxWorld): Promise<boolean> {
  try {
    await Promise.all([
      sandbox.getApplication(world.application_id),
      ...Object.values(world.users).map((id) => sandbox.getUser(id)),
    ]);
    return true;
  } catch (error) {
    if (error instanceof SandboxError && error.status === 404) return false;
    throw error;
  }
}

async function seed(
  sandbox: SandboxClient,
  config: SandboxPageConfig,
  secretSha: string | null,
): Promise<SandboxWorld> {
  const users: Record<string, string> = {};
  for (const username of config.users) {
    const globalName = username[0].toUpperCase() + username.slice(1);
    users[username] = (await sandbox.createUser({ username, global_name: globalName })).user.id;
  }
  const owner = users[config.users[0]];
  const { id, secret, name } = config.application;
  let applicationId: string;
  try {
    const created = await sandbox.createApplication({
      name,
      owner_id: owner,
      ...(id ? { id } : {}),
      ...(secret ? { client_secret: secret } : {}),
    });
    applicationId = created.application.id;
  } catch (error) {
    // Made on an earlier visit whose record this browser lost: keep it, with today's secret.
    const taken = error instanceof SandboxError && JSON.stringify(error.body).includes('"id"');
    if (!taken || !id) throw error;
    applicationId = id;
    if (secret) await sandbox.updateApplication(id, { client_secret: secret });
  }
  const { guild, channels } = await sandbox.createGuild({ name: SANDBOX_GUILD_NAME, owner_id: owner });
  for (const username of config.users.slice(1)) await sandbox.putGuildMember(guild.id, users[username]);
  const voice =
    channels.find((c) => c.type === GUILD_VOICE) ??
    (await sandbox.createChannel(guild.id, { name: 'Activity', type: GUILD_VOICE })).channel;
  return {
    version: 1,
    application_id: applicationId,
    secret_sha256: secretSha,
    users,
    guild_id: guild.id,
    channel_id: voice.id,
  };
}

/**
 * The world of `config`: the one made earlier if the platform still has it, else a new one.
 * @example const world = await ensureSandboxWorld(platform.sandbox, config, browserWorldRecord(localStorage));
 */
export async function ensureSandboxWorld(
  sandbox: SandboxClient,
  config: SandboxPageConfig,
  record: WorldRecord,
): Promise<SandboxWorld> {
  const work = async () => {
    const secretSha = config.application.secret ? await sha256(config.application.secret) : null;
    const known = await record.load();
    const sameApplication = known && (config.application.id === null || known.application_id === config.application.id);
    if (known && sameApplication && (await stillThere(sandbox, known))) {
      if (secretSha && known.secret_sha256 !== secretSha) {
        await sandbox.updateApplication(known.application_id, { client_secret: config.application.secret! });
        known.secret_sha256 = secretSha;
        await record.save(known);
      }
      return known;
    }
    const world = await seed(sandbox, config, secretSha);
    await record.save(world);
    return world;
  };
  return navigator.locks ? navigator.locks.request(SEED_LOCK, work) : work();
}
