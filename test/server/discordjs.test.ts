// @vitest-environment node
/**
 * CONTRACT §7: an unmodified bot library, configured with only its REST base, logs in to the
 * server, receives events and answers them. discord.js 14 follows `GET /api/v10/gateway/bot`
 * to the server's WebSocket, identifies with the bot token, gets READY and GUILD_CREATE, hears
 * a user's message under the message-content rules and replies; the user reads the reply; and
 * `user.send` opens a DM (`POST /users/@me/channels`) and posts in it, which the user finds.
 */
import { ChannelType, Client, Events, GatewayIntentBits, type Message } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_FLAGS } from '../../src/store/records/core';
import { freshSandbox, sandboxClient, startTestServer, type TestServer } from './server-harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

const MESSAGE_SCOPES = 'openid sdk.social_layer messages.read messages.write';

/** A sandbox with alice, a guild of hers and the application's bot in it. */
async function world(flags?: number) {
  const api = sandboxClient(freshSandbox(server.url));
  const alice = (await api.post('/sandbox/users', { username: 'alice' })).body.user;
  const created = (
    await api.post('/sandbox/applications', { name: 'Echo', owner_id: alice.id, ...(flags ? { flags } : {}) })
  ).body;
  const guild = (await api.post('/sandbox/guilds', { name: 'Echo Lab', owner_id: alice.id })).body;
  await api.put(`/sandbox/guilds/${guild.guild.id}/members/${created.bot.id}`, {});
  const token = (
    await api.post('/sandbox/tokens', {
      application_id: created.application.id,
      user_id: alice.id,
      scopes: MESSAGE_SCOPES,
    })
  ).body;
  const general = guild.channels.find((c: { name: string }) => c.name === 'general');
  return { api, alice, created, guild: guild.guild, general, aliceAuth: `Bearer ${token.access_token}` };
}

/** A discord.js client of the sandbox at `base`, logged in and ready. */
async function readyClient(base: string, botToken: string, intents: number[]): Promise<Client> {
  const client = new Client({ intents, rest: { api: `${base}/api` } });
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(botToken);
  await ready;
  return client;
}

/** The next message the client sees that `match` accepts. */
function nextMessage(client: Client, match: (message: Message) => boolean): Promise<Message> {
  return new Promise((resolve) => {
    const listener = (message: Message) => {
      if (!match(message)) return;
      client.off(Events.MessageCreate, listener);
      resolve(message);
    };
    client.on(Events.MessageCreate, listener);
  });
}

describe('discord.js 14 against the server', () => {
  it('logs in with only rest.api set, receives GUILD_CREATE, hears a message with its content (MESSAGE_CONTENT granted) and replies; the user reads the reply', async () => {
    const w = await world(APPLICATION_FLAGS.GATEWAY_MESSAGE_CONTENT_LIMITED);
    const client = await readyClient(w.api.base, w.created.bot_token, [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.MessageContent,
    ]);
    try {
      expect(client.user?.id).toBe(w.created.bot.id);
      expect(client.guilds.cache.get(w.guild.id)?.name).toBe('Echo Lab');
      expect(client.channels.cache.has(w.general.id)).toBe(true);
      client.on(Events.MessageCreate, (message) => {
        if (!message.author.bot) void message.reply(`echo: ${message.content}`);
      });
      const replied = nextMessage(client, (m) => m.author.id === w.created.bot.id);
      const sent = await w.api.post(
        `/api/v10/channels/${w.general.id}/messages`,
        { content: 'hello bot' },
        w.aliceAuth,
      );
      expect(sent.status).toBe(200);
      const reply = await replied;
      expect(reply.content).toBe('echo: hello bot');
      expect(reply.reference?.messageId).toBe(sent.body.id);
      const read = await w.api.get(`/api/v10/channels/${w.general.id}/messages?limit=5`, w.aliceAuth);
      expect(read.status).toBe(200);
      expect(read.body[0]).toMatchObject({
        content: 'echo: hello bot',
        author: { id: w.created.bot.id, bot: true },
        message_reference: { message_id: sent.body.id },
      });
    } finally {
      await client.destroy();
    }
  });

  it('without the MESSAGE_CONTENT intent the bot hears messages with empty content, unless it is mentioned', async () => {
    const w = await world();
    const client = await readyClient(w.api.base, w.created.bot_token, [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
    ]);
    try {
      const plain = nextMessage(client, (m) => m.author.id === w.alice.id);
      await w.api.post(`/api/v10/channels/${w.general.id}/messages`, { content: 'private words' }, w.aliceAuth);
      expect((await plain).content).toBe('');
      const mentioned = nextMessage(client, (m) => m.author.id === w.alice.id && m.content !== '');
      await w.api.post(
        `/api/v10/channels/${w.general.id}/messages`,
        { content: `hey <@${w.created.bot.id}>` },
        w.aliceAuth,
      );
      expect((await mentioned).content).toBe(`hey <@${w.created.bot.id}>`);
    } finally {
      await client.destroy();
    }
  });

  it("user.send('hi') opens the DM with the user and posts in it; the bot hears it with DirectMessages, and the user finds the channel and the message", async () => {
    const w = await world();
    const client = await readyClient(w.api.base, w.created.bot_token, [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.DirectMessages,
    ]);
    try {
      const user = await client.users.fetch(w.alice.id);
      expect(user.username).toBe('alice');
      const heard = nextMessage(client, (m) => m.channel.type === ChannelType.DM);
      const sent = await user.send('hi alice');
      expect(sent.content).toBe('hi alice');
      expect(sent.channel.type).toBe(ChannelType.DM);
      expect((await heard).id).toBe(sent.id);
      // The same DM channel for the same pair: a second send lands in it.
      const again = await user.send('still here');
      expect(again.channelId).toBe(sent.channelId);
      const channels = await w.api.get('/api/v10/users/@me/channels', w.aliceAuth);
      expect(channels.body).toEqual([
        expect.objectContaining({
          id: sent.channelId,
          type: 1,
          last_message_id: again.id,
          recipients: [expect.objectContaining({ id: w.created.bot.id })],
        }),
      ]);
    } finally {
      await client.destroy();
    }
  });
});
