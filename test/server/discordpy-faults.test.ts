// @vitest-environment node
/**
 * Faults on demand meet discord.py 2.2.2 (Debian's `python3-discord`), unmodified, against the
 * server: one bot (`bots/discordpy-faults-bot.py`) lives through a 429 and a 502 on a message send,
 * RECONNECT, a non-resumable INVALID_SESSION and a zombie connection, each injected through
 * `POST /sandbox/faults` while it runs. Each test prints how long it took to be back to normal
 * (docs/faults.md keeps the figures).
 *
 * The server's gateway asks for a heartbeat every 5 s (`serve --heartbeat-interval`) and the bot
 * gives up on a silent connection after 12 s (discord.py's `heartbeat_timeout`, 60 s by default),
 * so the zombie connection is met in seconds, not minutes.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordpyBot, discordpyVersion } from './discordpy-process';
import { type LibraryWorld, libraryWorld } from './library-world';
import { startTestServer, type TestServer } from './server-harness';

const SCRIPT = fileURLToPath(new URL('./bots/discordpy-faults-bot.py', import.meta.url));
/** Hello's heartbeat interval on this file's server, and how long the bot bears silence. */
const HEARTBEAT_MS = 5_000;
const BOT_HEARTBEAT_TIMEOUT_S = 12;

let server: TestServer;
let w: LibraryWorld;
let bot: DiscordpyBot;

beforeAll(async () => {
  expect(discordpyVersion()).toBe('2.2.2');
  server = await startTestServer({ heartbeatIntervalMs: HEARTBEAT_MS });
  w = await libraryWorld(server);
  const gateway = await w.api.get('/api/v10/gateway/bot', `Bot ${w.botToken}`);
  bot = new DiscordpyBot(w.restBase, gateway.body.url, w.botToken, SCRIPT, {
    PLATFORMPP_HEARTBEAT_TIMEOUT: String(BOT_HEARTBEAT_TIMEOUT_S),
  });
  await bot.event('ready');
});

afterAll(async () => {
  await bot?.close();
  await server?.stop();
});

/** Prints a figure for the docs. */
const figure = (fault: string, ms: number) => console.log(`figure: discord.py ${fault}: ${Math.round(ms)} ms`);

/** Alice posts `content` and the bot hears it. */
async function heardAfter(content: string): Promise<void> {
  const heard = bot.event('heard', (e) => e.content === content, 120_000);
  await w.alicePosts(w.general.id, content);
  await heard;
}

describe('discord.py 2.2.2 survives faults on demand', () => {
  it('a 429 on a message send: it waits retry_after and the message is sent once', async () => {
    const fault = { type: 'http_error', method: 'POST', path: '/api/v10/channels/*/messages', status: 429 };
    expect((await w.api.post('/sandbox/faults', { ...fault, retry_after: 0.5 })).status).toBe(201);
    const sent = await bot.command('send', { channel_id: w.general.id, content: 'py after a 429' });
    figure('429 on send', sent.took_ms);
    expect(sent.took_ms).toBeGreaterThanOrEqual(500);
    expect((await w.aliceReads(w.general.id)).filter((m) => m.content === 'py after a 429')).toHaveLength(1);
  });

  it('a 502 on a REST call: it retries and the message is sent once', async () => {
    await w.api.post('/sandbox/faults', { type: 'http_error', path: '/api/v10/channels/*/messages', status: 502 });
    const sent = await bot.command('send', { channel_id: w.general.id, content: 'py after a 502' });
    figure('502 on send', sent.took_ms);
    expect((await w.aliceReads(w.general.id)).filter((m) => m.content === 'py after a 502')).toHaveLength(1);
  });

  it('RECONNECT (op 7): it resumes and misses no event sent meanwhile', async () => {
    const started = performance.now();
    const resumed = bot.event('resumed');
    await w.api.post('/sandbox/faults', { type: 'reconnect', user_id: w.bot.id });
    const heard = bot.event('heard', (e) => e.content === 'py: sent while reconnecting');
    await w.alicePosts(w.general.id, 'py: sent while reconnecting');
    await resumed;
    figure('RECONNECT', performance.now() - started);
    await heard;
  });

  it('INVALID_SESSION not resumable (op 9 false): it identifies again and hears what follows', async () => {
    const started = performance.now();
    const ready = bot.event('ready');
    await w.api.post('/sandbox/faults', { type: 'invalid_session', resumable: false });
    await ready;
    figure('INVALID_SESSION (not resumable)', performance.now() - started);
    await heardAfter('py: after the new session');
  });

  it('a zombie connection (no heartbeat ACK): it reconnects once it hears nothing for its heartbeat_timeout', async () => {
    const started = performance.now();
    const back = Promise.race([bot.event('resumed', undefined, 60_000), bot.event('ready', undefined, 60_000)]);
    await w.api.post('/sandbox/faults', { type: 'zombie' });
    const how = await back;
    figure(`zombie connection (${how.event})`, performance.now() - started);
    await heardAfter('py: after the zombie');
  }, 90_000);
});
