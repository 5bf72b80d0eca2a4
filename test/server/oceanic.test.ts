// @vitest-environment node
/**
 * Issue "The platform's published wire", part 5: Oceanic.js 1.15, unmodified, configured with only
 * its REST base (`rest: { baseURL: <sandbox>/api/v10 }`), against the server. It reads the gateway
 * from `GET /gateway/bot`, appends `/` and `?v=10&encoding=json` (so it connects to `/gateway/`),
 * identifies with its default presence, gets READY and the guild with its text and voice
 * channels, hears a user's message and replies, edits the reply, reads the history, syncs a global
 * slash command and sends a DM with `user.createDM()`, which the user reads. Its figures go to
 * test-results/library-figures.json.
 */
import {
  ApplicationCommandTypes,
  ChannelTypes,
  Client,
  type Message,
  type TextChannel,
  type AnyTextableChannel,
} from 'oceanic.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './server-harness';
import { type LibraryWorld, libraryWorld, recordLibraryFigures } from './library-world';

let server: TestServer;
let w: LibraryWorld;
let client: Client;
let timeToReady = 0;
let messageToReply = 0;
/** The bot's reply of the message test, for the tests after it. */
let reply: Message | undefined;

/** The next message the client sees that `match` accepts. */
function nextMessage(match: (message: Message) => boolean): Promise<Message> {
  return new Promise((resolve) => {
    const listener = (message: Message) => {
      if (!match(message)) return;
      client.off('messageCreate', listener);
      resolve(message);
    };
    client.on('messageCreate', listener);
  });
}

beforeAll(async () => {
  server = await startTestServer();
  w = await libraryWorld(server);
  client = new Client({
    auth: `Bot ${w.botToken}`,
    rest: { baseURL: w.restBase },
    gateway: { intents: ['GUILDS', 'GUILD_MESSAGES', 'MESSAGE_CONTENT', 'DIRECT_MESSAGES'] },
  });
  client.on('error', (error) => console.error('oceanic.js:', error));
  const started = performance.now();
  // Oceanic retries a failed connection forever: its first error before READY fails the file.
  const ready = new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('error', reject);
  });
  await client.connect();
  await ready;
  timeToReady = performance.now() - started;
});

afterAll(async () => {
  client?.disconnect(false);
  if (timeToReady && messageToReply) {
    recordLibraryFigures('Oceanic.js', { time_to_ready_ms: timeToReady, message_to_reply_ms: messageToReply });
  }
  await server?.stop();
});

describe('Oceanic.js 1.15 against the server (rest.baseURL only)', () => {
  it('logs in through /gateway/ and gets READY as the application bot', () => {
    expect(client.user.id).toBe(w.bot.id);
    expect(client.user.bot).toBe(true);
    expect(client.application.id).toBe(w.application.id);
  });

  it('has the guild with its text and voice channels in its cache (GUILD_CREATE)', () => {
    const guild = client.guilds.get(w.guild.id);
    expect(guild?.name).toBe('Echo Lab');
    expect(guild?.channels.get(w.general.id)?.type).toBe(ChannelTypes.GUILD_TEXT);
    const voice = guild?.channels.get(w.voice.id);
    expect(voice?.type).toBe(ChannelTypes.GUILD_VOICE);
    expect(voice?.name).toBe('General');
  });

  it("hears a user's message with its content (MESSAGE_CONTENT granted) and replies; the user reads the reply with its message_reference", async () => {
    const heard = nextMessage((m) => m.author.id === w.alice.id);
    const started = performance.now();
    const sent = await w.alicePosts(w.general.id, 'hello bot');
    const message = await heard;
    expect(message.content).toBe('hello bot');
    reply = await client.rest.channels.createMessage(message.channelID, {
      content: `echo: ${message.content}`,
      messageReference: { messageID: message.id },
    });
    messageToReply = performance.now() - started;
    expect(reply.messageReference?.messageID).toBe(sent.id);
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
    const edited = await client.rest.channels.editMessage(reply!.channelID, reply!.id, {
      content: 'echo (edited): hello bot',
    });
    expect(edited.content).toBe('echo (edited): hello bot');
    expect(edited.editedTimestamp).not.toBeNull();
    const [newest] = await w.aliceReads(w.general.id, 1);
    expect(newest).toMatchObject({ id: reply!.id, content: 'echo (edited): hello bot' });
    expect(newest.edited_timestamp).toEqual(expect.any(String));
  });

  it("reads the channel's history, newest first", async () => {
    const channel = client.getChannel<TextChannel>(w.general.id);
    expect(channel).toBeDefined();
    const history = await channel!.getMessages({ limit: 10 });
    expect(history.slice(0, 2).map((m) => m.content)).toEqual(['echo (edited): hello bot', 'hello bot']);
  });

  it('syncs a global slash command with application.bulkEditGlobalCommands; the platform lists it', async () => {
    const synced = await client.application.bulkEditGlobalCommands([
      { type: ApplicationCommandTypes.CHAT_INPUT, name: 'ping', description: 'Answers pong' },
    ]);
    expect(synced.map((c) => c.name)).toEqual(['ping']);
    const stored = await w.globalCommands();
    expect(stored).toEqual([expect.objectContaining({ name: 'ping', description: 'Answers pong', type: 1 })]);
  });

  it('sends a DM with user.createDM(); the user receives it on her gateway and finds the DM channel', async () => {
    const online = await w.aliceOnline();
    try {
      const alice = await client.rest.users.get(w.alice.id);
      const channel = await alice.createDM();
      const dm = await (channel as AnyTextableChannel).createMessage({ content: 'hello from Oceanic.js' });
      expect(dm.channelID).toBe(channel.id);
      const event = await online.waitFor((p) => p.t === 'MESSAGE_CREATE' && p.d.id === dm.id);
      expect(event.d).toMatchObject({
        channel_id: channel.id,
        content: 'hello from Oceanic.js',
        author: { id: w.bot.id },
      });
      expect(await w.aliceDmChannels()).toContainEqual(
        expect.objectContaining({ id: channel.id, last_message_id: dm.id }),
      );
    } finally {
      online.socket.close();
    }
  });
});
