/**
 * The simulated platform client of one page: the current user's gateway session (members,
 * presences, messages, lobbies), the bot's session (the same guild as the bot sees it, with
 * channel obfuscation), and the message and lobby calls of the HTTP API. Everything comes from
 * the platform: the service worker answers the HTTP calls, the shared worker is the gateway.
 */
import type { SandboxClient } from '../../src/components/sandbox-client';
import { CAPABILITY_CHANNEL_OBFUSCATION, type GatewayDispatch } from '../../src/gateway/protocol';
import { INTENTS } from '../../src/platform/core/intents';
import { CHANNEL_MESSAGES_MAX, LOBBY_MESSAGES_MAX } from '../../src/platform/core/limits';
import { ApiClient, ApiRequestError } from '../shared/api';
import { GatewaySession, type GatewaySessionStatus } from '../shared/gateway-session';
import { ClientState, type WireLobby, type WireMessage, type WireUser } from './client-state';
import type { EventJournal } from './event-journal';
import { mintClientToken } from './seed';
import type { DemoWorld, WorldUser } from './world';
import { loadLobbyIds, saveWorld, updateLobbyIds } from './world-store';

/** What the client's session asks for: guilds, their messages, members and presences (the app's toggles grant the last two). */
const CLIENT_INTENTS = INTENTS.GUILDS | INTENTS.GUILD_MESSAGES | INTENTS.GUILD_MEMBERS | INTENTS.GUILD_PRESENCES;

/**
 * One page's client.
 * @example
 * const client = new DemoClient(world, pickUser(world, 'bob'), platform.sandbox, journal);
 * client.start();
 */
export class DemoClient extends EventTarget {
  /** What the current user's session knows. */
  readonly state = new ClientState();
  /** What the bot's session knows (its guild's channels, obfuscated where it cannot view them). */
  readonly botState = new ClientState();
  /** The current user's API client. */
  readonly api: ApiClient;
  /** The bot's API client. */
  readonly botApi: ApiClient;
  status: GatewaySessionStatus = 'connecting';
  botStatus: GatewaySessionStatus = 'connecting';
  /** Why a session closed for good, else null. */
  closedReason: string | null = null;
  readonly #sessions: GatewaySession[];
  #renewing: Promise<void> | null = null;

  constructor(
    readonly world: DemoWorld,
    readonly user: WorldUser,
    private readonly sandbox: SandboxClient,
    journal: EventJournal,
  ) {
    super();
    const renew = () => this.renewToken();
    this.api = new ApiClient(() => `Bearer ${this.user.token}`, '/api/v10', renew);
    this.botApi = new ApiClient(`Bot ${world.game.bot_token}`);
    const userSession = new GatewaySession({
      token: () => `Bearer ${this.user.token}`,
      renew,
      intents: CLIENT_INTENTS,
      onPayload: (p) => journal.record(user.username, p),
      onSent: (p) => journal.record(user.username, p, 'sent'),
      onDispatch: (dispatch) => this.#onDispatch(dispatch),
      onStatus: (status, reason) => this.#setStatus('status', status, reason),
    });
    const botSession = new GatewaySession({
      token: `Bot ${world.game.bot_token}`,
      intents: INTENTS.GUILDS,
      capabilities: CAPABILITY_CHANNEL_OBFUSCATION,
      onPayload: (p) => journal.record(`${world.game.name} bot`, p),
      onSent: (p) => journal.record(`${world.game.name} bot`, p, 'sent'),
      onDispatch: (dispatch) => this.botState.apply(dispatch),
      onStatus: (status, reason) => this.#setStatus('botStatus', status, reason),
    });
    this.#sessions = [userSession, botSession];
  }

  /** Connects both sessions and reads the user's lobbies. */
  start(): void {
    for (const session of this.#sessions) session.start();
  }

  /** Disconnects. */
  stop(): void {
    for (const session of this.#sessions) session.stop();
  }

  /** A new token for the current user (the old one expired by the sandbox clock). */
  renewToken(): Promise<void> {
    this.#renewing ??= mintClientToken(this.sandbox, this.world, this.user.id)
      .then((token) => {
        this.user.token = token;
        return saveWorld(this.world);
      })
      .finally(() => (this.#renewing = null));
    return this.#renewing;
  }

  /** Reads every lobby the user is known to be in (the seeded one and those joined here before). */
  async loadLobbies(): Promise<void> {
    const ids = new Set([this.world.lobby.id, ...(await loadLobbyIds(this.user.id))]);
    await Promise.all(
      [...ids].map(async (id) => {
        try {
          this.state.setLobby(await this.api.get<WireLobby>(`/lobbies/${id}`));
        } catch (error) {
          // Left, removed for idleness, or never joined: not a lobby of this user any more.
          if (error instanceof ApiRequestError && [403, 404].includes(error.status)) await this.#forgetLobby(id);
          else throw error;
        }
      }),
    );
  }

  /** Joins the lobby with this secret, creating it when none has it (`PUT /lobbies`). */
  async joinLobby(secret: string): Promise<WireLobby> {
    const lobby = await this.api.put<WireLobby>('/lobbies', { secret });
    this.state.setLobby(lobby);
    await this.#rememberLobby(lobby.id);
    await this.loadHistory(lobby.id);
    return lobby;
  }

  /** Leaves a lobby. */
  async leaveLobby(lobbyId: string): Promise<void> {
    await this.api.delete(`/lobbies/${lobbyId}/members/@me`);
    await this.#forgetLobby(lobbyId);
    this.state.dropLobby(lobbyId);
  }

  /** Reads the lobby's history: its newest 200 messages. */
  async loadHistory(lobbyId: string): Promise<void> {
    const newestFirst = await this.api.get<WireMessage[]>(`/lobbies/${lobbyId}/messages?limit=${LOBBY_MESSAGES_MAX}`);
    this.state.addMessages(lobbyId, newestFirst);
  }

  /** Sends a message to a lobby. */
  async sendMessage(lobbyId: string, content: string): Promise<void> {
    this.state.addMessages(lobbyId, [await this.api.post<WireMessage>(`/lobbies/${lobbyId}/messages`, { content })]);
  }

  /** Reads a guild channel's newest 100 messages. */
  async loadChannelHistory(channelId: string): Promise<void> {
    const newestFirst = await this.api.get<WireMessage[]>(
      `/channels/${channelId}/messages?limit=${CHANNEL_MESSAGES_MAX}`,
    );
    this.state.addChannelMessages(channelId, newestFirst);
  }

  /**
   * Sends a message to a guild channel. With a nonce and `enforce_nonce`, a retry of the same
   * send cannot post it twice: the platform answers the first message again.
   */
  async sendChannelMessage(channelId: string, content: string): Promise<void> {
    const nonce = String(Date.now()) + String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
    this.state.addChannelMessages(channelId, [
      await this.api.post<WireMessage>(`/channels/${channelId}/messages`, { content, nonce, enforce_nonce: true }),
    ]);
  }

  /** A user by id: from what the client knows, else from the sandbox (the client knows its simulated users). */
  async resolveUser(id: string): Promise<WireUser> {
    const known = this.state.users.get(id);
    if (known) return known;
    const { user } = await this.sandbox.getUser(id);
    this.state.rememberUser(user as WireUser);
    return user as WireUser;
  }

  #onDispatch(dispatch: GatewayDispatch): void {
    this.state.apply(dispatch);
    if (dispatch.t === 'LOBBY_MEMBER_ADD') {
      const { lobby_id, member } = dispatch.d;
      // Someone the client has not heard of joined a lobby: read their name.
      if (member?.id && !this.state.users.has(member.id)) {
        void this.resolveUser(member.id).catch((error) => this.#fail(error));
      }
      // Added to a lobby elsewhere (another tab of this user, a bot): read it.
      if (member?.id === this.user.id && !this.state.lobbies.has(lobby_id)) {
        void this.#rememberLobby(lobby_id)
          .then(() => this.loadLobbies())
          .catch((error) => this.#fail(error));
      }
    }
    // A new session may have missed messages while it was away.
    if (dispatch.t === 'READY') {
      const reads = [...this.state.lobbies.keys()].map((id) => this.loadHistory(id));
      reads.push(...[...this.state.channelMessages.keys()].map((id) => this.loadChannelHistory(id)));
      void Promise.all(reads).catch((error) => this.#fail(error));
    }
  }

  #fail(error: unknown): void {
    this.dispatchEvent(new CustomEvent('error', { detail: error }));
  }

  #setStatus(which: 'status' | 'botStatus', status: GatewaySessionStatus, reason?: string): void {
    this[which] = status;
    if (reason) this.closedReason = reason;
    this.dispatchEvent(new Event('status'));
  }

  #rememberLobby(id: string): Promise<void> {
    return updateLobbyIds(this.user.id, (ids) => ids.add(id));
  }

  #forgetLobby(id: string): Promise<void> {
    return updateLobbyIds(this.user.id, (ids) => ids.delete(id));
  }
}
