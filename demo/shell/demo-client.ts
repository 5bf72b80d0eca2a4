/**
 * The simulated platform client of one page: the current user's gateway session (members,
 * presences, messages, lobbies, voice states), the bot's session (the same guild as the bot
 * sees it, with channel obfuscation), the message and lobby calls of the HTTP API, and the
 * user's voice (calls placed with the game SDK). Everything comes from the platform: the
 * service worker answers the HTTP calls, the shared worker is the gateway.
 */
import type { SandboxClient } from '../../src/components/sandbox-client';
import { CAPABILITY_CHANNEL_OBFUSCATION } from '../../src/gateway/protocol';
import { INTENTS } from '../../src/platform/core/intents';
import { ApiClient, ApiRequestError } from '../shared/api';
import { GatewaySession, type GatewaySessionStatus } from '../shared/gateway-session';
import { ClientState, type WireLobby, type WireUser } from './client-state';
import { Conversations } from './conversations';
import { ReadMarks } from './read-marks';
import type { EventJournal } from './event-journal';
import { mintClientToken } from './seed';
import { DemoVoice } from './voice-session';
import type { DemoWorld, WorldUser } from './world';
import { browserWorldRecords, type WorldRecords } from './world-records';
import { loadLobbyIds, updateLobbyIds } from './world-store';

/**
 * What the client's session asks for: guilds, their messages and who types them, voice states,
 * members and presences (the app's toggles grant the last two).
 */
const CLIENT_INTENTS =
  INTENTS.GUILDS |
  INTENTS.GUILD_MESSAGES |
  INTENTS.GUILD_MESSAGE_TYPING |
  INTENTS.GUILD_VOICE_STATES |
  INTENTS.GUILD_MEMBERS |
  INTENTS.GUILD_PRESENCES;

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
  /** Lobby, channel and direct message calls. */
  readonly conversations: Conversations;
  /** What the user has read, for the unread marks. */
  readonly reads: ReadMarks;
  /** The user's voice calls, mute and deafen. */
  readonly voice: DemoVoice;
  status: GatewaySessionStatus = 'connecting';
  botStatus: GatewaySessionStatus = 'connecting';
  /** Why a session closed for good, else null. */
  closedReason: string | null = null;
  readonly #sessions: GatewaySession[];
  #renewing: Promise<void> | null = null;
  /** Secrets of the lobbies this browser made or joined (the seeded lobby's is in the world). */
  #secrets = new Map<string, string>();

  constructor(
    readonly world: DemoWorld,
    readonly user: WorldUser,
    private readonly sandbox: SandboxClient,
    journal: EventJournal,
    /** Where the world is recorded (a renewed token is recorded there). */
    private readonly records: WorldRecords = browserWorldRecords,
  ) {
    super();
    const renew = () => this.renewToken();
    this.api = new ApiClient(() => `Bearer ${this.user.token}`, '/api/v10', renew);
    this.botApi = new ApiClient(`Bot ${world.game.bot_token}`);
    this.conversations = new Conversations(this.api, this.state);
    this.reads = new ReadMarks(user.id);
    this.reads.addEventListener('change', () => this.state.changed());
    this.voice = new DemoVoice({
      applicationId: world.client.application_id,
      userId: user.id,
      token: () => this.user.token,
    });
    const userSession = new GatewaySession({
      token: () => `Bearer ${this.user.token}`,
      renew,
      intents: CLIENT_INTENTS,
      onPayload: (p) => journal.record(user.username, p),
      onSent: (p) => journal.record(user.username, p, 'sent'),
      onDispatch: (dispatch) => this.#onDispatch(dispatch.t, dispatch.d),
      onStatus: (status, reason) => this.#setStatus('status', status, reason),
    });
    const botSession = new GatewaySession({
      token: `Bot ${world.game.bot_token}`,
      intents: INTENTS.GUILDS,
      capabilities: CAPABILITY_CHANNEL_OBFUSCATION,
      onPayload: (p) => journal.record(`${world.game.name} bot`, p),
      onSent: (p) => journal.record(`${world.game.name} bot`, p, 'sent'),
      onDispatch: (dispatch) => this.botState.apply(dispatch.t, dispatch.d),
      onStatus: (status, reason) => this.#setStatus('botStatus', status, reason),
    });
    this.#sessions = [userSession, botSession];
  }

  /** Connects both sessions and reads what the user has read. */
  start(): void {
    for (const session of this.#sessions) session.start();
    this.reads.load().catch((error) => this.#fail(error));
  }

  /** Disconnects, leaving any call. */
  stop(): void {
    this.voice.stop();
    for (const session of this.#sessions) session.stop();
  }

  /** A new token for the current user (the old one expired by the sandbox clock). */
  renewToken(): Promise<void> {
    this.#renewing ??= mintClientToken(this.sandbox, this.world, this.user.id)
      .then((token) => {
        this.user.token = token;
        this.voice.tokenChanged();
        return this.records.save(this.world);
      })
      .finally(() => (this.#renewing = null));
    return this.#renewing;
  }

  /** Reads the user's lobbies and DM channels. */
  async loadConversations(): Promise<void> {
    await Promise.all([this.loadLobbies(), this.conversations.loadDmChannels()]);
  }

  /** Reads every lobby the user is known to be in (the seeded one and those joined here before). */
  async loadLobbies(): Promise<void> {
    const known = await loadLobbyIds(this.user.id);
    this.#secrets = new Map(Object.entries(known.secrets));
    const ids = new Set([this.world.lobby.id, ...known.ids]);
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

  /**
   * Joins the lobby with this secret, creating it when none has it (`PUT /lobbies`). A lobby
   * made here is named after its secret (`lobby_metadata` applies only at creation), and the
   * page remembers the secret, so that it can be shown to invite others.
   */
  async joinLobby(secret: string): Promise<WireLobby> {
    const lobby = await this.api.put<WireLobby>('/lobbies', { secret, lobby_metadata: { name: secret } });
    this.state.setLobby(lobby);
    await this.#rememberLobby(lobby.id, secret);
    await this.conversations.loadLobbyHistory(lobby.id);
    return lobby;
  }

  /** The secret that joins `lobbyId`, when this browser knows it (it made or joined the lobby with it). */
  lobbySecret(lobbyId: string): string | undefined {
    if (lobbyId === this.world.lobby.id) return this.world.lobby.secret;
    return this.#secrets.get(lobbyId);
  }

  /** Leaves a lobby. */
  async leaveLobby(lobbyId: string): Promise<void> {
    await this.api.delete(`/lobbies/${lobbyId}/members/@me`);
    await this.#forgetLobby(lobbyId);
    this.state.dropLobby(lobbyId);
  }

  /** A user by id: from what the client knows, else from the sandbox (the client knows its simulated users). */
  async resolveUser(id: string): Promise<WireUser> {
    const known = this.state.users.get(id);
    if (known) return known;
    const { user } = await this.sandbox.getUser(id);
    this.state.rememberUser(user as WireUser);
    return user as WireUser;
  }

  #onDispatch(type: string, data: any): void {
    this.state.apply(type, data);
    // Someone the client has not heard of joined a lobby: read their name.
    if (type === 'LOBBY_MEMBER_ADD' && data.member?.id && !this.state.users.has(data.member.id)) {
      void this.resolveUser(data.member.id).catch((error) => this.#fail(error));
    }
    // Added to a lobby elsewhere (another tab of this user, a bot): read it.
    if (type === 'LOBBY_MEMBER_ADD' && data.member?.id === this.user.id && !this.state.lobbies.has(data.lobby_id)) {
      void this.#rememberLobby(data.lobby_id)
        .then(() => this.loadLobbies())
        .catch((error) => this.#fail(error));
    }
    // A new session may have missed messages while it was away (DM channels are read by their view).
    if (type === 'READY') {
      const { conversations } = this;
      const reads = [...this.state.lobbies.keys()].map((id) => conversations.loadLobbyHistory(id));
      const channels = [...this.state.channelMessages.keys()].filter((id) => !this.state.dmChannels.has(id));
      reads.push(...channels.map((id) => conversations.loadChannelHistory(id)));
      void Promise.all(reads).catch((error) => this.#fail(error));
    }
    // Someone pinned or unpinned in a channel the client shows: which messages are pinned now.
    if (type === 'CHANNEL_PINS_UPDATE' && this.state.channelMessages.has(data.channel_id)) {
      void this.conversations.loadPins(data.channel_id).catch((error) => this.#fail(error));
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

  #rememberLobby(id: string, secret?: string): Promise<void> {
    if (secret) this.#secrets.set(id, secret);
    return updateLobbyIds(this.user.id, (ids) => ids.add(id), secret ? { [id]: secret } : undefined);
  }

  #forgetLobby(id: string): Promise<void> {
    return updateLobbyIds(this.user.id, (ids) => ids.delete(id));
  }
}
