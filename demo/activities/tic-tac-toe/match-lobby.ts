/**
 * Where a match's moves travel: a lobby of the Tic-Tac-Toe application, one per channel
 * (joined by the secret `tic-tac-toe:<channel_id>`, so a player who reloads finds the board
 * again). Moves are lobby messages; the history read gives the game so far, and the player's
 * gateway session (LOBBY_MESSAGE_CREATE) brings every later move, from any tab.
 */
import { LOBBY_MESSAGES_MAX } from '../../../src/platform/core/limits';
import { ApiClient } from '../../shared/api';
import { GatewaySession, type GatewaySessionStatus } from '../../shared/gateway-session';
import type { GameMessage } from './game';

/** A lobby message as the rules and the page read it. */
export interface MatchMessage extends GameMessage {
  lobby_id: string;
  content: string;
}

/** How long an empty match lobby lives on: an hour. */
const MATCH_IDLE_TIMEOUT_S = 3600;

/**
 * The match of one channel.
 * @example
 * const match = new MatchLobby(token, channelId, (messages) => render(replay(messages)), (what, error) => show(what, error));
 * await match.open();
 * await match.send('Alice plays the centre', moveMetadata(4));
 */
export class MatchLobby {
  readonly #api: ApiClient;
  readonly #session: GatewaySession;
  #lobbyId: string | null = null;
  /** The lobby's messages, oldest first. */
  #messages = new Map<string, MatchMessage>();

  constructor(
    token: string,
    private readonly channelId: string,
    private readonly onMessages: (messages: MatchMessage[]) => void,
    /** A read the page did not ask for failed (the history read again after a reconnect): shown, never swallowed. */
    onError: (what: string, error: unknown) => void,
    onStatus: (status: GatewaySessionStatus, reason?: string) => void = () => undefined,
  ) {
    this.#api = new ApiClient(`Bearer ${token}`, '/.proxy/api/v10');
    this.#session = new GatewaySession({
      token: `Bearer ${token}`,
      // Lobby events reach a lobby member's sessions whatever the intents.
      intents: 0,
      onDispatch: (dispatch) => {
        // A new session may have missed moves while it was away.
        if (dispatch.t === 'READY' && this.#lobbyId)
          this.#readHistory().catch((error) => onError('Reading the moves again', error));
        // A lobby message always carries its metadata (null when it has none).
        if (dispatch.t === 'LOBBY_MESSAGE_CREATE' && dispatch.d.lobby_id === this.#lobbyId)
          this.#add([dispatch.d as MatchMessage]);
      },
      onStatus,
    });
  }

  /** Joins (or creates) the channel's match lobby, reads its history and starts listening. */
  async open(): Promise<void> {
    const lobby = await this.#api.put<{ id: string }>('/lobbies', {
      secret: `tic-tac-toe:${this.channelId}`,
      lobby_metadata: { name: 'Tic-Tac-Toe match' },
      idle_timeout_seconds: MATCH_IDLE_TIMEOUT_S,
    });
    this.#lobbyId = lobby.id;
    this.#session.start();
    await this.#readHistory();
  }

  /** Sends a message (a move, a new game) to the match. */
  async send(content: string, metadata: Record<string, string>): Promise<void> {
    if (!this.#lobbyId) throw new Error('the match lobby is not open yet');
    this.#add([await this.#api.post<MatchMessage>(`/lobbies/${this.#lobbyId}/messages`, { content, metadata })]);
  }

  /** Stops listening. */
  close(): void {
    this.#session.stop();
  }

  async #readHistory(): Promise<void> {
    this.#add(await this.#api.get<MatchMessage[]>(`/lobbies/${this.#lobbyId}/messages?limit=${LOBBY_MESSAGES_MAX}`));
  }

  #add(messages: MatchMessage[]): void {
    for (const m of messages) this.#messages.set(m.id, m);
    const ordered = [...this.#messages.values()].sort(
      (a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    this.onMessages(ordered);
  }
}
