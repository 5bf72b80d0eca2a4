// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../../src/sdk/client';
import { ErrorType, SdkError } from '../../../src/sdk/errors';
import { StatusDisplayType, type LobbyMessage } from '../../../src/sdk/types';
import { getLobbyMessagesWithLimit } from '../../../src/sdk/client-social';
import { SdkHttp } from '../../../src/sdk/http';
import { SdkLogger } from '../../../src/sdk/logger';
import { createSdkHarness, type SdkHarness } from './sdk-harness';

let h: SdkHarness;
afterEach(async () => {
  await h?.close();
});

async function rejection(promise: Promise<unknown>): Promise<SdkError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SdkError);
  return error as SdkError;
}

async function setClock(iso: string): Promise<void> {
  expect((await h.api.put('/sandbox/clock', { now: iso })).status).toBe(200);
  await h.flush();
}

describe('Client: lobbies and their chat', () => {
  it('createOrJoinLobby creates, then joins by the same secret; both clients hear the member and every message through the gateway', async () => {
    h = await createSdkHarness();
    const alice = (await h.readyClient(h.world.alice)).client;
    const bob = (await h.readyClient(h.world.bob)).client;
    const heard = { alice: [] as LobbyMessage[], bob: [] as LobbyMessage[] };
    const added: string[] = [];
    alice.setMessageCreatedCallback((_id, message) => heard.alice.push(message));
    bob.setMessageCreatedCallback((_id, message) => heard.bob.push(message));
    alice.setLobbyMemberAddedCallback((_lobby, memberId) => added.push(memberId));

    const lobby = await alice.createOrJoinLobby('match-1', { mode: 'duel' }, { team: 'red' });
    expect(lobby.metadata).toEqual({ mode: 'duel' });
    const joined = await bob.createOrJoinLobby('match-1', undefined, { team: 'blue' });
    expect(joined.id).toBe(lobby.id);
    expect(joined.members.map((m) => m.id).sort()).toEqual([h.world.alice.id, h.world.bob.id].sort());
    await h.until(() => added.includes(h.world.bob.id), 'LOBBY_MEMBER_ADD for bob');
    expect(alice.getLobbyHandle(lobby.id)?.members.map((m) => m.id)).toContain(h.world.bob.id);

    const sent = await alice.sendLobbyMessage(lobby.id, 'gl hf', { emote: 'wave' });
    await bob.sendLobbyMessage(lobby.id, 'you too');
    await h.until(() => heard.alice.length === 2 && heard.bob.length === 2, 'both messages at both clients');
    expect(heard.bob.map((m) => m.content)).toEqual(['gl hf', 'you too']);
    expect(heard.bob[0]).toMatchObject({
      id: sent.id,
      lobby_id: lobby.id,
      author: { id: h.world.alice.id },
      metadata: { emote: 'wave' },
    });

    const history = await bob.getLobbyMessagesWithLimit(lobby.id, 10);
    expect(history.map((m) => m.content)).toEqual(['you too', 'gl hf']);
  });

  it('GetLobbyMessagesWithLimit: a limit above 200 (or below 1) is refused before any request, naming the 200-message and 72-hour bounds', async () => {
    h = await createSdkHarness();
    const { client } = await h.readyClient(h.world.alice);
    const lobby = await client.createOrJoinLobby('history');
    const before = h.requests.length;
    for (const limit of [201, 0, -1, 2.5, Number.NaN]) {
      const error = await rejection(client.getLobbyMessagesWithLimit(lobby.id, limit));
      expect(error.type).toBe(ErrorType.ValidationError);
      expect(error.message).toMatch(/1 to 200.*72 hours/);
    }
    expect(h.requests.length).toBe(before);
    expect(await client.getLobbyMessagesWithLimit(lobby.id, 200)).toEqual([]);
  });

  it('GetLobbyMessagesWithLimit returns at most 200 messages, the newest', async () => {
    h = await createSdkHarness();
    const { client } = await h.readyClient(h.world.alice);
    const lobby = await client.createOrJoinLobby('many');
    for (let i = 0; i < 205; i++)
      await h.api.post(`/api/v10/lobbies/${lobby.id}/messages`, { content: `m${i}` }, h.world.botAuth);
    const messages = await client.getLobbyMessagesWithLimit(lobby.id, 200);
    expect(messages).toHaveLength(200);
    expect(messages[0].content).toBe('m204');
    expect(messages.at(-1)!.content).toBe('m5');
  });

  it('GetLobbyMessagesWithLimit returns only messages of the last 72 hours, by the platform clock the answer states (the route returns them all)', async () => {
    h = await createSdkHarness();
    // Later than any id handed out so far; the token is issued at that time too, so that it is
    // still valid 72 hours later.
    const start = Date.parse('2031-01-01T00:00:00Z');
    await setClock(new Date(start).toISOString());
    const { client } = await h.readyClient(h.world.alice);
    const lobby = await client.createOrJoinLobby('old-chat');
    await client.sendLobbyMessage(lobby.id, 'old');
    await setClock(new Date(start + 71 * 3_600_000).toISOString());
    await client.sendLobbyMessage(lobby.id, 'recent');
    const history = async () => (await client.getLobbyMessagesWithLimit(lobby.id, 50)).map((m) => m.content);
    expect(await history()).toEqual(['recent', 'old']);
    await setClock(new Date(start + 72 * 3_600_000).toISOString());
    expect(await history()).toEqual(['recent', 'old']);
    await setClock(new Date(start + 72 * 3_600_000 + 1000).toISOString());
    expect(await history()).toEqual(['recent']);
    await setClock(new Date(start + 144 * 3_600_000).toISOString());
    expect(await history()).toEqual([]);
    // The window is the SDK's: the route still answers both.
    const route = await h.api.get(`/api/v10/lobbies/${lobby.id}/messages`, h.world.botAuth);
    expect(route.body.map((m: LobbyMessage) => m.content)).toEqual(['recent', 'old']);
  });

  it("GetLobbyMessagesWithLimit judges the 72 hours by this machine's clock when the answer states no Date", async () => {
    const now = Date.now();
    const message = (content: string, ageMs: number) => ({
      id: '1',
      content,
      timestamp: new Date(now - ageMs).toISOString(),
    });
    const body = JSON.stringify([message('new', 3_600_000), message('old', 73 * 3_600_000)]);
    const http = new SdkHttp({
      fetch: async () => new Response(body, { headers: { 'Content-Type': 'application/json' } }),
      baseUrl: 'http://x',
      log: new SdkLogger(),
    });
    http.token = 'token';
    const messages = await getLobbyMessagesWithLimit({ http, events: {} as never }, '123', 50);
    expect(messages.map((m) => m.content)).toEqual(['new']);
  });

  it('GetLobbyMessagesWithLimit is only for lobbies the user is a member of', async () => {
    h = await createSdkHarness();
    const alice = (await h.readyClient(h.world.alice)).client;
    const bob = (await h.readyClient(h.world.bob)).client;
    const lobby = await alice.createOrJoinLobby('members-only');
    const error = await rejection(bob.getLobbyMessagesWithLimit(lobby.id, 10));
    expect(error).toMatchObject({ type: ErrorType.HTTPError, status: 403, code: 50001 });
    expect(error.message).toMatch(/GET \/api\/v10\/lobbies\/\d+\/messages failed with 403 \(50001\)/);
  });

  it('leaveLobby removes the user: the lobby handle is gone and its history is refused', async () => {
    h = await createSdkHarness();
    const alice = (await h.readyClient(h.world.alice)).client;
    const bob = (await h.readyClient(h.world.bob)).client;
    const removed: string[] = [];
    alice.setLobbyMemberRemovedCallback((_lobby, memberId) => removed.push(memberId));
    const lobby = await alice.createOrJoinLobby('leave-me');
    await bob.createOrJoinLobby('leave-me');
    await bob.leaveLobby(lobby.id);
    expect(bob.getLobbyHandle(lobby.id)).toBeUndefined();
    await h.until(() => removed.includes(h.world.bob.id), 'LOBBY_MEMBER_REMOVE for bob');
    expect(alice.getLobbyHandle(lobby.id)?.members.map((m) => m.id)).toEqual([h.world.alice.id]);
    expect((await rejection(bob.getLobbyMessagesWithLimit(lobby.id, 1))).status).toBe(403);
  });

  it('arguments are checked before anything is sent', async () => {
    h = await createSdkHarness();
    const { client } = await h.readyClient(h.world.alice);
    const before = h.requests.length;
    expect((await rejection(client.createOrJoinLobby(''))).message).toMatch(/secret/);
    expect((await rejection(client.createOrJoinLobby('s', { n: 1 } as never))).message).toMatch(
      /lobbyMetadata must be a dictionary of strings/,
    );
    expect((await rejection(client.sendLobbyMessage('123', ''))).message).toMatch(/content/);
    expect((await rejection(client.sendLobbyMessage('not-an-id', 'hi'))).message).toMatch(/lobbyId must be an id/);
    expect(h.requests.length).toBe(before);
  });
});

describe('Client.updateRichPresence (PUT /users/@me/activities)', () => {
  it('sets the activity with its links and the field choice of the status text', async () => {
    h = await createSdkHarness();
    const { client, tokens } = await h.readyClient(h.world.alice, 'openid sdk.social_layer_presence');
    const stored = await client.updateRichPresence({
      state: 'In a match',
      state_url: 'https://game.example/match/1',
      details: 'Ranked',
      details_url: 'https://game.example/ranked',
      status_display_type: StatusDisplayType.Details,
      assets: {
        large_image: 'map',
        large_url: 'https://game.example/map',
        small_image: 'rank',
        small_url: 'https://game.example/rank',
      },
    });
    expect(stored).toMatchObject({
      name: 'Game',
      status_display_type: 2,
      state_url: 'https://game.example/match/1',
      assets: { large_url: 'https://game.example/map', small_url: 'https://game.example/rank' },
    });
    const read = await h.api.get('/api/v10/users/@me/activities', `Bearer ${tokens.access_token}`);
    expect(read.body.activities).toHaveLength(1);
    await client.clearRichPresence();
    expect((await h.api.get('/api/v10/users/@me/activities', `Bearer ${tokens.access_token}`)).body.activities).toEqual(
      [],
    );
  });

  it('a refused activity says which field was wrong', async () => {
    h = await createSdkHarness();
    const { client } = await h.readyClient(h.world.alice);
    const error = await rejection(
      client.updateRichPresence({ state_url: 'javascript:alert(1)', status_display_type: 7 as never }),
    );
    expect(error).toMatchObject({ type: ErrorType.HTTPError, status: 400, code: 50035 });
    expect(error.message).toMatch(/activity\.state_url: Must be an http or https URL/);
  });
});

describe('Client.getGuildChannels', () => {
  it('answers the channels of a guild the user is in (sdk.social_layer includes guilds)', async () => {
    h = await createSdkHarness();
    const created = await h.guildWithBot();
    const { client } = await h.readyClient(h.world.alice);
    const channels = await client.getGuildChannels(created.guild.id);
    expect(channels.map((c) => c.id).sort()).toEqual(created.channels.map((c: { id: string }) => c.id).sort());
  });

  it('a guild the user is not in is refused by the platform', async () => {
    h = await createSdkHarness();
    const created = await h.guildWithBot();
    const { client } = await h.readyClient(h.world.bob);
    expect((await rejection(client.getGuildChannels(created.guild.id))).type).toBe(ErrorType.HTTPError);
  });
});

describe('Client settings', () => {
  it('setEngineManagedAudioSession records a boolean (nothing acts on it without voice) and refuses anything else', async () => {
    h = await createSdkHarness();
    const client = h.client();
    expect(client.getEngineManagedAudioSession()).toBe(false);
    client.setEngineManagedAudioSession(true);
    expect(client.getEngineManagedAudioSession()).toBe(true);
    expect(() => client.setEngineManagedAudioSession('yes' as never)).toThrow(SdkError);
  });

  it('a destroyed client refuses every operation with ClientDestroyed', async () => {
    h = await createSdkHarness();
    const client: Client = h.client();
    await client.destroy();
    expect((await rejection(client.createOrJoinLobby('x'))).type).toBe(ErrorType.ClientDestroyed);
    expect((await rejection(client.connect())).type).toBe(ErrorType.ClientDestroyed);
  });
});
