// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { EventJournal, JOURNAL_MAX, redact } from '../../../demo/shell/event-journal';
import { generateBotToken, generateSecret } from '../../../src/platform/core/secrets';

const botToken = generateBotToken('1300000000000000042');
const accessToken = generateSecret();
const voiceToken = generateSecret(16);
const interactionToken = `aW50ZXJhY3Rpb246${generateSecret(48)}`;

/** Every secret above must be gone from the redacted copy, in any field. */
function expectNoSecret(value: unknown): void {
  const text = JSON.stringify(value);
  for (const secret of [botToken, accessToken, voiceToken, interactionToken]) expect(text).not.toContain(secret);
}

describe('redact (issue 5: the event stream never shows a token)', () => {
  it("redacts Identify's token (a user's Bearer token and a bot's)", () => {
    for (const token of [`Bearer ${accessToken}`, `Bot ${botToken}`]) {
      const identify = {
        token,
        intents: 513,
        properties: { os: 'browser', browser: 'platformpp-demo', device: 'platformpp-demo' },
      };
      const shown = redact(identify) as typeof identify;
      expect(shown.token).toBe('[redacted]');
      expect(shown.intents).toBe(513);
      expectNoSecret(shown);
    }
  });

  it("redacts VOICE_SERVER_UPDATE's token and keeps its endpoint", () => {
    const shown = redact({ token: voiceToken, guild_id: '1', endpoint: 'voice.platformpp.invalid' }) as Record<
      string,
      unknown
    >;
    expect(shown).toEqual({ token: '[redacted]', guild_id: '1', endpoint: 'voice.platformpp.invalid' });
  });

  it("redacts an interaction's token, however deep the payload holds it", () => {
    const interaction = {
      id: '9',
      type: 2,
      token: interactionToken,
      data: { name: 'play' },
      message: { interaction_metadata: { token: interactionToken } },
    };
    const shown = redact(interaction) as typeof interaction;
    expect(shown.token).toBe('[redacted]');
    expect(shown.data).toEqual({ name: 'play' });
    expectNoSecret(shown);
  });

  it('redacts OAuth2 fields: access and refresh tokens, client secrets, codes and verifiers', () => {
    const shown = redact({
      access_token: accessToken,
      refresh_token: accessToken,
      token_type: 'Bearer',
      client_secret: accessToken,
      code: accessToken,
      code_verifier: accessToken,
      scope: 'identify',
    });
    expect(shown).toMatchObject({
      access_token: '[redacted]',
      refresh_token: '[redacted]',
      client_secret: '[redacted]',
      code: '[redacted]',
      code_verifier: '[redacted]',
      scope: 'identify',
    });
    expectNoSecret(shown);
  });

  it('redacts a credential that is a whole value or is written inside a text, under any key', () => {
    const shown = redact({
      header: `Bearer ${accessToken}`,
      content: `oops, my bot token is ${botToken} and my header Authorization: Bot ${botToken}`,
      list: [`Bot ${botToken}`, { note: `token=${accessToken}` }],
    }) as { content: string };
    expectNoSecret(shown);
    expect(shown.content).toBe('oops, my bot token is [redacted] and my header Authorization: Bot [redacted]');
  });

  it('keeps ordinary words that follow "bot" or "Bearer" in a text', () => {
    const content = 'Moderators only: the Tic-Tac-Toe bot sees it as ___hidden___. Bearer tokens are never shown.';
    expect(redact({ content })).toEqual({ content });
  });

  it("keeps READY's session_id and resume_gateway_url, ids and ordinary text", () => {
    const ready = {
      v: 10,
      user: { id: '1300000000000000001', username: 'alice' },
      session_id: generateSecret(16),
      resume_gateway_url: '/gateway?v=10',
      guilds: [{ id: '7', unavailable: true }],
      content: 'Tokens are never shown.',
    };
    expect(redact(ready)).toEqual(ready);
  });

  it('returns a copy and leaves the payload it was given alone', () => {
    const payload = { token: voiceToken, nested: { access_token: accessToken } };
    redact(payload);
    expect(payload).toEqual({ token: voiceToken, nested: { access_token: accessToken } });
  });
});

describe('EventJournal', () => {
  it('keeps received and sent payloads redacted, names opcodes, and keeps the newest JOURNAL_MAX', () => {
    const journal = new EventJournal();
    journal.record('alice', { op: 2, d: { token: `Bearer ${accessToken}`, intents: 1 } }, 'sent');
    journal.record('alice', {
      op: 0,
      t: 'VOICE_SERVER_UPDATE',
      s: 4,
      d: { token: voiceToken, guild_id: '1', endpoint: 'e' },
    });
    expect(journal.entries.map((e) => [e.type, e.direction, e.seq])).toEqual([
      ['IDENTIFY', 'sent', null],
      ['VOICE_SERVER_UPDATE', 'received', 4],
    ]);
    expectNoSecret(journal.entries);
    for (let i = 0; i < JOURNAL_MAX + 5; i++) journal.record('alice', { op: 11, d: null });
    expect(journal.entries).toHaveLength(JOURNAL_MAX);
    expect(journal.entries[0].type).toBe('HEARTBEAT_ACK');
  });
});

describe('the event stream records injected faults (docs/faults.md: each fault is in the stream)', () => {
  it('a fault is an entry of the sandbox, named FAULT <type>, with its fields', () => {
    const journal = new EventJournal();
    let changes = 0;
    journal.addEventListener('change', () => changes++);
    journal.recordFault({ type: 'reconnect', user_id: '42', id: '7', created_at: 0, remaining: null } as {
      type: string;
    });
    expect(journal.entries).toEqual([
      expect.objectContaining({
        source: 'sandbox',
        type: 'FAULT reconnect',
        seq: null,
        data: expect.objectContaining({ user_id: '42' }),
      }),
    ]);
    expect(changes).toBe(1);
  });

  it('records the recovery from a stop_service_worker fault after the fault, as the sandbox saw it', () => {
    const journal = new EventJournal();
    journal.recordFault({ type: 'stop_service_worker' });
    journal.recordRecovery('service worker', { controller: 'http://x/sw.js?start=7', ms: 120 });
    expect(journal.entries.map((e) => [e.source, e.type, e.data])).toEqual([
      ['sandbox', 'FAULT stop_service_worker', { type: 'stop_service_worker' }],
      ['sandbox', 'RECOVERED service worker', { controller: 'http://x/sw.js?start=7', ms: 120 }],
    ]);
  });
});
