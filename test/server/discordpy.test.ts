// @vitest-environment node
/**
 * Issue "The platform's published wire", part 5: discord.py 2.2.2 (Debian's `python3-discord`),
 * unmodified, against the server, configured as a user would: `discord.http.Route.BASE` is the
 * REST base and `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` the `url` of
 * `GET /gateway/bot`. It reads `GET /oauth2/applications/@me` at login, connects with
 * `compress=zlib-stream`, gets READY and the guild with its text and voice channels (whose
 * `bitrate` and `user_limit` it parses), hears a user's message and replies (its
 * `message_reference.message_id` is a JSON number), edits the reply, reads the history, syncs
 * its command tree and sends a DM with `user.send`, which the user reads. The bot is
 * `bots/discordpy-bot.py`; its figures go to test-results/library-figures.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordpyBot, discordpyVersion } from './discordpy-process';
import { type LibraryWorld, libraryWorld, recordLibraryFigures } from './library-world';
import { startTestServer, type TestServer } from './server-harness';

let server: TestServer;
let w: LibraryWorld;
let bot: DiscordpyBot;
let ready: Record<string, any>;
let messageToReply = 0;
/** The bot's reply of the message test, for the tests after it. */
let reply: Record<string, any> | undefined;

beforeAll(async () => {
  // Fails (never skips) with the command that installs it when discord.py is missing.
  expect(discordpyVersion()).toBe('2.2.2');
  server = await startTestServer();
  w = await libraryWorld(server);
  const gateway = await w.api.get('/api/v10/gateway/bot', `Bot ${w.botToken}`);
  expect(gateway.status).toBe(200);
  bot = new DiscordpyBot(w.restBase, gateway.body.url, w.botToken);
  ready = await bot.event('ready');
});

afterAll(async () => {
  await bot?.close();
  if (ready && messageToReply) {
    recordLibraryFigures('discord.py', { time_to_ready_ms: ready.ready_ms, message_to_reply_ms: messageToReply });
  }
  await server?.stop();
});

describe('discord.py 2.2.2 against the server (Route.BASE and DEFAULT_GATEWAY only)', () => {
  it('logs in (GET /oauth2/applications/@me) and gets READY over zlib-stream as the application bot', () => {
    expect(ready.user).toEqual({ id: w.bot.id, name: w.bot.username, bot: true });
    expect(ready.application_id).toBe(w.application.id);
  });

  it('has the guild with its text and voice channels in its cache, bitrate and user_limit parsed', () => {
    const guild = ready.guilds.find((g: { id: string }) => g.id === w.guild.id);
    expect(guild?.name).toBe('Echo Lab');
    expect(guild.text_channels).toContainEqual({ id: w.general.id, name: 'general' });
    expect(guild.voice_channels).toEqual([
      { id: w.voice.id, name: 'General', bitrate: expect.any(Number), user_limit: expect.any(Number) },
    ]);
  });

  it("hears a user's message with its content (MESSAGE_CONTENT granted) and replies with message.reply; the user reads the reply with its message_reference", async () => {
    const started = performance.now();
    const sent = await w.alicePosts(w.general.id, 'hello bot');
    const replied = await bot.event('replied', (e) => e.heard.id === sent.id);
    messageToReply = performance.now() - started;
    expect(replied.error).toBeUndefined();
    expect(replied.heard).toMatchObject({ content: 'hello bot', author_id: w.alice.id });
    reply = replied.reply;
    expect(reply).toMatchObject({ content: 'echo: hello bot', author_id: w.bot.id, reference_id: sent.id });
    const [newest] = await w.aliceReads(w.general.id, 5);
    expect(newest).toMatchObject({
      id: reply!.id,
      content: 'echo: hello bot',
      author: { id: w.bot.id, bot: true },
      message_reference: { message_id: sent.id },
    });
  });

  it('edits its reply; the user reads the new content and its edited_timestamp', async () => {
    expect(reply).toBeDefined();
    const edited = await bot.command('edit', {
      channel_id: w.general.id,
      message_id: reply!.id,
      content: 'echo (edited): hello bot',
    });
    expect(edited).toMatchObject({ id: reply!.id, content: 'echo (edited): hello bot', edited: true });
    const [newest] = await w.aliceReads(w.general.id, 1);
    expect(newest).toMatchObject({ id: reply!.id, content: 'echo (edited): hello bot' });
    expect(newest.edited_timestamp).toEqual(expect.any(String));
  });

  it("reads the channel's history with channel.history, newest first", async () => {
    const history = await bot.command('history', { channel_id: w.general.id, limit: 10 });
    expect(history.slice(0, 2).map((m: { content: string }) => m.content)).toEqual([
      'echo (edited): hello bot',
      'hello bot',
    ]);
  });

  it('syncs its global slash command with CommandTree.sync(); the platform lists it', async () => {
    const synced = await bot.command('sync');
    expect(synced).toEqual([{ id: expect.any(String), name: 'ping', description: 'Answers pong' }]);
    const stored = await w.globalCommands();
    expect(stored).toEqual([expect.objectContaining({ id: synced[0].id, name: 'ping', type: 1 })]);
  });

  it('sends a DM with user.send; the user receives it on her gateway and finds the DM channel', async () => {
    const online = await w.aliceOnline();
    try {
      const dm = await bot.command('dm', { user_id: w.alice.id, content: 'hello from discord.py' });
      expect(dm).toMatchObject({ dm: true, content: 'hello from discord.py', author_id: w.bot.id });
      const event = await online.waitFor((p) => p.t === 'MESSAGE_CREATE' && p.d.id === dm.id);
      expect(event.d).toMatchObject({
        channel_id: dm.channel_id,
        content: 'hello from discord.py',
        author: { id: w.bot.id },
      });
      expect(await w.aliceDmChannels()).toContainEqual(
        expect.objectContaining({ id: dm.channel_id, last_message_id: dm.id }),
      );
    } finally {
      online.socket.close();
    }
  });
});
