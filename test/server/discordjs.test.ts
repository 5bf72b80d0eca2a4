// @vitest-environment node
/**
 * CONTRACT §7: an unmodified bot library, configured with only its REST base, logs in to the
 * server, receives events and answers them. discord.js 14 follows `GET /api/v10/gateway/bot`
 * to the server's WebSocket, identifies with the bot token, gets READY and GUILD_CREATE, hears
 * a user's message under the message-content rules and replies; the user reads the reply; then
 * it edits the reply, reads the channel's history, syncs a global slash command and sends a DM
 * with its own `user.send`, which the user reads. Its figures go to test-results/library-figures.json.
 */
import { ChannelType, Client, Events, GatewayIntentBits, type Message, type TextChannel } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSandbox, sandboxClient, startTestServer, type TestServer } from './server-harness';
import { type LibraryWorld, libraryWorld, recordLibraryFigures } from './library-world';

let server: TestServer;
let w: LibraryWorld;
let client: Client;
let timeToReady = 0;
let messageToReply = 0;
/** The bot's reply of the message test, for the tests after it. */
let reply: Message | undefined;

/** A discord.js client of the sandbox at `base`, logged in and ready. */
async function readyClient(base: string, botToken: string, intents: number[]): Promise<Client> {
  const created = new Client({ intents, rest: { api: `${base}/api` } });
  const ready = new Promise<void>((resolve) => created.once(Events.ClientReady, () => resolve()));
  await created.login(botToken);
  await ready;
  return created;
}

/** The next message the client sees that `match` accepts. */
function nextMessage(on: Client, match: (message: Message) => boolean): Promise<Message> {
  return new Promise((resolve) => {
    const listener = (message: Message) => {
      if (!match(message)) return;
      on.off(Events.MessageCreate, listener);
      resolve(message);
    };
    on.on(Events.MessageCreate, listener);
  });
}

beforeAll(async () => {
  server = await startTestServer();
  w = await libraryWorld(server);
  const started = performance.now();
  client = await readyClient(w.api.base, w.botToken, [
    GatewayIntentBits.Guilds,
    GatewayIntentBits.GuildMessages,
    GatewayIntentBits.MessageContent,
    GatewayIntentBits.DirectMessages,
  ]);
  timeToReady = performance.now() - started;
});

afterAll(async () => {
  await client?.destroy();
  if (timeToReady && messageToReply) {
    recordLibraryFigures('discord.js', { time_to_ready_ms: timeToReady, message_to_reply_ms: messageToReply });
  }
  await server?.stop();
});

describe('discord.js 14 against the server (rest.api only)', () => {
  it('logs in and gets READY as the application bot', () => {
    expect(client.user?.id).toBe(w.bot.id);
    expect(client.user?.bot).toBe(true);
  });

  it('has the guild with its text and voice channels in its cache (GUILD_CREATE)', () => {
    const guild = client.guilds.cache.get(w.guild.id);
    expect(guild?.name).toBe('Echo Lab');
    expect(guild?.channels.cache.get(w.general.id)?.type).toBe(ChannelType.GuildText);
    const voice = guild?.channels.cache.get(w.voice.id);
    expect(voice?.type).toBe(ChannelType.GuildVoice);
    expect(voice?.name).toBe('General');
  });

  it("hears a user's message with its content (MESSAGE_CONTENT granted) and replies; the user reads the reply with its message_reference", async () => {
    const heard = nextMessage(client, (m) => m.author.id === w.alice.id);
    const started = performance.now();
    const sent = await w.alicePosts(w.general.id, 'hello bot');
    const message = await heard;
    expect(message.content).toBe('hello bot');
    reply = await message.reply(`echo: ${message.content}`);
    messageToReply = performance.now() - started;
    expect(reply.reference?.messageId).toBe(sent.id);
    const [newest] = await w.aliceReads(w.general.id, 5);
    expect(newest).toMatchObject({
      id: reply.id,
      content: 'echo: hello bot',
      author: { id: w.bot.id, bot: true },
      message_reference: { message_id: sent.id },
    });
  });

  it('edits its reply; the user reads the new content and its edited_timestamp', async () => {
    expect(reply).toBeDefined();
    const edited = await reply!.edit('echo (edited): hello bot');
    expect(edited.content).toBe('echo (edited): hello bot');
    expect(edited.editedTimestamp).not.toBeNull();
    const [newest] = await w.aliceReads(w.general.id, 1);
    expect(newest).toMatchObject({ id: reply!.id, content: 'echo (edited): hello bot' });
    expect(newest.edited_timestamp).toEqual(expect.any(String));
  });

  it("reads the channel's history, newest first", async () => {
    const channel = (await client.channels.fetch(w.general.id)) as TextChannel;
    const history = await channel.messages.fetch({ limit: 10 });
    const contents = [...history.values()].map((m) => m.content);
    expect(contents.slice(0, 2)).toEqual(['echo (edited): hello bot', 'hello bot']);
  });

  it('syncs a global slash command with application.commands.set; the platform lists it', async () => {
    const synced = await client.application!.commands.set([{ name: 'ping', description: 'Answers pong' }]);
    expect([...synced.values()].map((c) => c.name)).toEqual(['ping']);
    const stored = await w.globalCommands();
    expect(stored).toEqual([expect.objectContaining({ name: 'ping', description: 'Answers pong', type: 1 })]);
  });

  it('sends a DM with its own user.send (the bot hears it with DirectMessages); the user receives it on her gateway and finds the DM channel, the same one for a second send', async () => {
    const online = await w.aliceOnline();
    try {
      const alice = await client.users.fetch(w.alice.id);
      expect(alice.username).toBe('alice');
      const heard = nextMessage(client, (m) => m.channel.type === ChannelType.DM);
      const dm = await alice.send('hello from discord.js');
      expect(dm.channel.type).toBe(ChannelType.DM);
      expect((await heard).id).toBe(dm.id);
      const event = await online.waitFor((p) => p.t === 'MESSAGE_CREATE' && p.d.id === dm.id);
      expect(event.d).toMatchObject({
        channel_id: dm.channelId,
        content: 'hello from discord.js',
        author: { id: w.bot.id },
      });
      // One DM channel per pair: a second send lands in it.
      const again = await alice.send('still here');
      expect(again.channelId).toBe(dm.channelId);
      expect(await w.aliceDmChannels()).toEqual([
        expect.objectContaining({
          id: dm.channelId,
          type: 1,
          last_message_id: again.id,
          recipients: [expect.objectContaining({ id: w.bot.id })],
        }),
      ]);
    } finally {
      online.socket.close();
    }
  });
});

describe('discord.js 14: the message content rules', () => {
  it('without the MESSAGE_CONTENT intent the bot hears messages with empty content, unless it is mentioned', async () => {
    const api = sandboxClient(freshSandbox(server.url));
    const alice = (await api.post('/sandbox/users', { username: 'alice' })).body.user;
    const created = (await api.post('/sandbox/applications', { name: 'Echo', owner_id: alice.id })).body;
    const guild = (await api.post('/sandbox/guilds', { name: 'Echo Lab', owner_id: alice.id })).body;
    await api.put(`/sandbox/guilds/${guild.guild.id}/members/${created.bot.id}`, {});
    const token = (
      await api.post('/sandbox/tokens', {
        application_id: created.application.id,
        user_id: alice.id,
        scopes: 'openid messages.read messages.write',
      })
    ).body;
    const aliceAuth = `Bearer ${token.access_token}`;
    const general = guild.channels.find((c: { name: string }) => c.name === 'general');
    const plainClient = await readyClient(api.base, created.bot_token, [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
    ]);
    try {
      const plain = nextMessage(plainClient, (m) => m.author.id === alice.id);
      await api.post(`/api/v10/channels/${general.id}/messages`, { content: 'private words' }, aliceAuth);
      expect((await plain).content).toBe('');
      const mentioned = nextMessage(plainClient, (m) => m.author.id === alice.id && m.content !== '');
      await api.post(`/api/v10/channels/${general.id}/messages`, { content: `hey <@${created.bot.id}>` }, aliceAuth);
      expect((await mentioned).content).toBe(`hey <@${created.bot.id}>`);
    } finally {
      await plainClient.destroy();
    }
  });
});
