/**
 * The client's calls for its conversations, over the platform's HTTP API: lobby chat (history,
 * send), guild channel messages (history, send with a reply, edit, delete, pins, typing) and
 * direct messages with another user (history, send, typing). Every answer goes into the
 * client's state, so the views redraw from there; every refusal rejects with the platform's
 * words.
 */
import {
  CHANNEL_MESSAGES_MAX,
  DM_MESSAGES_MAX,
  LOBBY_MESSAGES_MAX,
  PINS_PAGE_MAX,
  TYPING_INDICATOR_MS,
} from '../../src/platform/core/limits';
import type { ApiClient } from '../shared/api';
import type { ClientState } from './client-state';
import type { WireDmChannel, WireMessage } from './wire';

/** How often typing is told while the user keeps typing: a little before the indicator runs out. */
const TYPING_REPEAT_MS = TYPING_INDICATOR_MS - 2_000;

/**
 * The conversations of one client.
 * @example await client.conversations.sendChannelMessage(channelId, 'hi', { replyTo: messageId });
 */
export class Conversations {
  /** When typing was last told, per channel. */
  readonly #typingSent = new Map<string, number>();

  constructor(
    private readonly api: ApiClient,
    private readonly state: ClientState,
  ) {}

  /** A lobby's newest 200 messages. */
  async loadLobbyHistory(lobbyId: string): Promise<void> {
    const newestFirst = await this.api.get<WireMessage[]>(`/lobbies/${lobbyId}/messages?limit=${LOBBY_MESSAGES_MAX}`);
    this.state.addMessages(lobbyId, newestFirst);
  }

  /** Sends a message to a lobby. */
  async sendLobbyMessage(lobbyId: string, content: string): Promise<void> {
    this.state.addMessages(lobbyId, [await this.api.post<WireMessage>(`/lobbies/${lobbyId}/messages`, { content })]);
  }

  /** A guild channel's newest 100 messages, and which of them are pinned. */
  async loadChannelHistory(channelId: string): Promise<void> {
    const newestFirst = await this.api.get<WireMessage[]>(
      `/channels/${channelId}/messages?limit=${CHANNEL_MESSAGES_MAX}`,
    );
    this.state.addChannelMessages(channelId, newestFirst);
  }

  /** Reads which messages of a channel are pinned (after CHANNEL_PINS_UPDATE). */
  async loadPins(channelId: string): Promise<void> {
    const { items } = await this.api.get<{ items: { message: WireMessage }[] }>(
      `/channels/${channelId}/messages/pins?limit=${PINS_PAGE_MAX}`,
    );
    this.state.setPinned(channelId, new Set(items.map((item) => item.message.id)));
  }

  /**
   * Sends a message to a guild channel, as a reply to `replyTo` when given. With a nonce and
   * `enforce_nonce`, a retry of the same send cannot post it twice: the platform answers the
   * first message again.
   */
  async sendChannelMessage(channelId: string, content: string, options: { replyTo?: string } = {}): Promise<void> {
    const nonce = String(Date.now()) + String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
    const body = {
      content,
      nonce,
      enforce_nonce: true,
      ...(options.replyTo ? { message_reference: { message_id: options.replyTo, fail_if_not_exists: false } } : {}),
    };
    this.#typingSent.delete(channelId);
    this.state.addChannelMessages(channelId, [
      await this.api.post<WireMessage>(`/channels/${channelId}/messages`, body),
    ]);
  }

  /** Changes the text of one of the user's messages. */
  async editChannelMessage(channelId: string, messageId: string, content: string): Promise<void> {
    const edited = await this.api.patch<WireMessage>(`/channels/${channelId}/messages/${messageId}`, { content });
    this.state.addChannelMessages(channelId, [edited]);
  }

  /** Deletes a message (the user's own, or any with Manage Messages). */
  async deleteChannelMessage(channelId: string, messageId: string): Promise<void> {
    await this.api.delete(`/channels/${channelId}/messages/${messageId}`);
    this.state.apply('MESSAGE_DELETE', { id: messageId, channel_id: channelId });
  }

  /** Pins or unpins a message (Pin Messages). */
  async setPinned(channelId: string, messageId: string, pinned: boolean): Promise<void> {
    const path = `/channels/${channelId}/messages/pins/${messageId}`;
    if (pinned) await this.api.put(path);
    else await this.api.delete(path);
    await this.loadPins(channelId);
  }

  /**
   * Tells the channel (a guild channel or a DM channel) that the user is typing: at most once
   * every few seconds while they type, as clients do.
   */
  async typing(channelId: string): Promise<void> {
    const last = this.#typingSent.get(channelId) ?? 0;
    if (Date.now() - last < TYPING_REPEAT_MS) return;
    this.#typingSent.set(channelId, Date.now());
    await this.api.post(`/channels/${channelId}/typing`);
  }

  /** The user's DM channels. */
  async loadDmChannels(): Promise<void> {
    this.state.setDmChannels(await this.api.get<WireDmChannel[]>('/users/@me/channels'));
  }

  /** The newest direct messages with `userId` (at most 200, of the last 72 hours). */
  async loadDmHistory(userId: string): Promise<void> {
    const newestFirst = await this.api.get<WireMessage[]>(`/users/@me/dms/${userId}/messages?limit=${DM_MESSAGES_MAX}`);
    const channelId = newestFirst[0]?.channel_id;
    if (!channelId) return;
    this.state.rememberDm(channelId, userId);
    this.state.addChannelMessages(channelId, newestFirst);
  }

  /** Sends a direct message to `userId`. */
  async sendDm(userId: string, content: string): Promise<void> {
    const message = await this.api.post<WireMessage>(`/users/@me/dms/${userId}/messages`, { content });
    if (message.channel_id) {
      this.#typingSent.delete(message.channel_id);
      this.state.apply('MESSAGE_CREATE', message);
    }
  }
}
