/**
 * The world every bot library test meets (issue "The platform's published wire", part 5): alice,
 * an application granted the message content intent, her guild (with its `general` text channel
 * and `General` voice channel) with the bot in it, and alice's OAuth2 token to post and read as a
 * user does. Also where each library's figures (time to ready, message-to-reply round trip) are
 * written, for the docs to quote.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { INTENTS } from '../../src/platform/core/intents';
import { APPLICATION_FLAGS } from '../../src/store/records/core';
import { identifyWire } from './gateway-client';
import { freshSandbox, sandboxClient, type TestServer } from './server-harness';

/** What alice's token may do: post and read guild messages, list her DM channels. */
const ALICE_SCOPES = 'openid sdk.social_layer messages.read messages.write';

/** The file the library tests write their figures to. */
export const LIBRARY_FIGURES_PATH = 'test-results/library-figures.json';

/** The sandbox a bot library connects to, and what alice needs to talk to its bot. */
export type LibraryWorld = Awaited<ReturnType<typeof libraryWorld>>;

/** A fresh sandbox of `server` with alice, her guild and a bot (MESSAGE_CONTENT granted) in it. */
export async function libraryWorld(server: TestServer) {
  const api = sandboxClient(freshSandbox(server.url));
  const alice = (await api.post('/sandbox/users', { username: 'alice' })).body.user;
  const created = (
    await api.post('/sandbox/applications', {
      name: 'Echo',
      owner_id: alice.id,
      flags: APPLICATION_FLAGS.GATEWAY_MESSAGE_CONTENT_LIMITED,
    })
  ).body;
  const guild = (await api.post('/sandbox/guilds', { name: 'Echo Lab', owner_id: alice.id })).body;
  await api.put(`/sandbox/guilds/${guild.guild.id}/members/${created.bot.id}`, {});
  const token = (
    await api.post('/sandbox/tokens', {
      application_id: created.application.id,
      user_id: alice.id,
      scopes: ALICE_SCOPES,
    })
  ).body;
  const channelNamed = (name: string) => guild.channels.find((c: { name: string }) => c.name === name);
  const aliceAuth = `Bearer ${token.access_token}`;
  return {
    api,
    alice,
    application: created.application,
    bot: created.bot,
    botToken: created.bot_token as string,
    guild: guild.guild,
    general: channelNamed('general'),
    voice: channelNamed('General'),
    aliceAuth,
    /** The REST base a library is given: `<sandbox>/api/v10`. */
    restBase: `${api.base}/api/v10`,
    /** Alice posts `content` in `channelId` through the HTTP API, as a user's client does. */
    async alicePosts(channelId: string, content: string) {
      const sent = await api.post(`/api/v10/channels/${channelId}/messages`, { content }, aliceAuth);
      if (sent.status !== 200) throw new Error(`alice could not post: ${sent.status} ${JSON.stringify(sent.body)}`);
      return sent.body;
    },
    /** The newest messages of `channelId` as alice reads them. */
    async aliceReads(channelId: string, limit = 10) {
      const read = await api.get(`/api/v10/channels/${channelId}/messages?limit=${limit}`, aliceAuth);
      if (read.status !== 200) throw new Error(`alice could not read: ${read.status} ${JSON.stringify(read.body)}`);
      return read.body as any[];
    },
    /**
     * Alice's client online on the gateway (her Bearer token), for what reaches her as events:
     * a bot's DM arrives as MESSAGE_CREATE in her DM channel with it. Close it when done.
     */
    async aliceOnline() {
      const gateway = await api.get('/api/v10/gateway');
      return identifyWire(`${gateway.body.url}?v=10&encoding=json`, aliceAuth, {
        intents: INTENTS.DIRECT_MESSAGES | INTENTS.MESSAGE_CONTENT,
      });
    },
    /** Alice's DM channels (`GET /users/@me/channels`), most recent message first. */
    async aliceDmChannels() {
      const read = await api.get('/api/v10/users/@me/channels', aliceAuth);
      if (read.status !== 200) throw new Error(`alice could not list DMs: ${read.status} ${JSON.stringify(read.body)}`);
      return read.body as any[];
    },
    /** The application's global commands, as the platform stored them. */
    async globalCommands() {
      const read = await api.get(
        `/api/v10/applications/${created.application.id}/commands`,
        `Bot ${created.bot_token}`,
      );
      if (read.status !== 200) throw new Error(`commands: ${read.status} ${JSON.stringify(read.body)}`);
      return read.body as any[];
    },
  };
}

/** What one library measured against the server, in milliseconds. */
export interface LibraryFigures {
  /** From the library's login call to its ready event. */
  time_to_ready_ms: number;
  /** From a user's POST of a message to the bot's reply to it being stored (the library's reply call returned). */
  message_to_reply_ms: number;
}

/**
 * Prints `library`'s figures and merges them into {@link LIBRARY_FIGURES_PATH}, beside the
 * other libraries' (test files run in parallel: read, merge and write in one synchronous step).
 */
export function recordLibraryFigures(library: string, figures: LibraryFigures): void {
  const rounded = {
    time_to_ready_ms: Math.round(figures.time_to_ready_ms),
    message_to_reply_ms: Math.round(figures.message_to_reply_ms),
    measured_at: new Date().toISOString(),
  };
  console.log(
    `${library}: ready in ${rounded.time_to_ready_ms} ms, message to reply ${rounded.message_to_reply_ms} ms`,
  );
  let all: Record<string, unknown> = {};
  try {
    all = JSON.parse(readFileSync(LIBRARY_FIGURES_PATH, 'utf8'));
  } catch {
    // No figures yet (or a broken file): start afresh.
  }
  all[library] = rounded;
  mkdirSync(dirname(LIBRARY_FIGURES_PATH), { recursive: true });
  writeFileSync(LIBRARY_FIGURES_PATH, `${JSON.stringify(all, null, 2)}\n`);
}
