/**
 * The RPC host of one activity frame (CONTRACT §5): takes the messages the page receives,
 * keeps only those from the iframe's window and the expected origin, runs the handshake,
 * answers commands, and dispatches the events the activity subscribed to. Pure: the page
 * injects how to post, the platform client, the host page's user interface and the instance's
 * participants, so unit tests drive it with plain objects.
 */
import type { SpeakingChange } from '../gateway/voice-speaking';
import { ApiError } from '../platform/core/errors';
import { COMMAND_ANY_SCOPES, COMMAND_HANDLERS, COMMAND_SCOPES, OPEN_COMMANDS } from './commands';
import type { CommandContext, FrameInfo, FrameSettings, HostUi, RpcSession } from './context';
import type { PlatformClient } from './platform-client';
import { claimActivityJoin } from './client-commands';
import { toRpcError } from './platform-client';
import {
  COMMANDS,
  DISPATCH,
  OPCODES,
  RPC_CLOSE_CODES,
  RPC_VERSION,
  type ClosePayload,
  type Command,
  type RpcMessage,
  type RpcParticipant,
  type SubscribableEvent,
} from './protocol';
import { COMMAND_ARGS, CommandFrameSchema, HandshakeSchema, validateRpc } from './schemas';
import { guildStatusChanges, translatePlatformEvent } from './platform-dispatches';
import { requireAnyScope, requireScopes } from './subscriptions';

/** Why a message was dropped unanswered. */
export type DropReason = 'source' | 'origin' | 'shape';

/**
 * How a HANDSHAKE ended: accepted (READY was sent; everything the activity held before is
 * gone, as after a reload), or refused with the CLOSE code and message sent back.
 */
export type HandshakeOutcome =
  | { accepted: true; sdk_version: string | null }
  | { accepted: false; code: number; message: string };

/** A received message as the host reads it (a `MessageEvent` fits). */
export interface ReceivedMessage {
  source: unknown;
  origin: string;
  data: unknown;
}

/** What a host needs. */
export interface RpcHostOptions {
  frame: FrameInfo;
  /** The iframe's window: only its messages are answered. */
  source: unknown;
  /** The origin of the activity's page: only messages from it are answered. */
  origin: string;
  /** Sends a message to the activity (`iframe.contentWindow.postMessage(message, origin)`). */
  post(message: RpcMessage): void;
  platform: PlatformClient;
  ui: HostUi;
  /** The instance's participants now. */
  participants(): RpcParticipant[];
  /** READY's `config.api_endpoint`: where the platform's API is. */
  apiEndpoint: string;
  /** A message was dropped (developer signal; nothing is answered). */
  onDrop?(reason: DropReason, message: ReceivedMessage): void;
  /** The activity asked to close. */
  onClose?(payload: ClosePayload): void;
  /** The host closed the activity (`close()`); a refused handshake is told by `onHandshake` instead. */
  onHostClose?(payload: ClosePayload): void;
  /** A HANDSHAKE arrived (the activity loaded, reloaded, or created its SDK again) and was answered. */
  onHandshake?(outcome: HandshakeOutcome): void;
  /** AUTHENTICATE opened a session (the page may now listen to the platform for it). */
  onAuthenticated?(session: RpcSession): void;
  /** Where bugs are reported (already redacted). */
  log?(line: string): void;
  /**
   * Watches who speaks in a voice call (`callId`: a guild voice channel's id, or a lobby's) and
   * returns the function that stops; the host calls it while the activity subscribes to
   * SPEAKING_START or SPEAKING_STOP for the call. Without it those events never fire.
   */
  watchSpeaking?(callId: string, onChange: (change: SpeakingChange) => void): () => void;
}

function isCommand(name: string): name is Command {
  return (COMMANDS as readonly string[]).includes(name);
}

/**
 * The host side of one activity frame.
 * @example
 * const host = new RpcHost({ frame, source: iframe.contentWindow, origin, post: (m) => iframe.contentWindow.postMessage(m, origin), platform, ui, participants, apiEndpoint });
 * addEventListener('message', (event) => host.receive(event));
 */
export class RpcHost {
  #ready = false;
  #session: RpcSession | null = null;
  readonly #subscriptions = new Map<SubscribableEvent, Set<string>>();
  /** The speaking watches open for SPEAKING_* subscriptions, by subscription key (`channel:<id>`, `lobby:<id>`). */
  readonly #speakingWatches = new Map<string, () => void>();
  readonly #settings: FrameSettings = {
    use_interactive_pip: false,
    lock_state: 1,
    picture_in_picture_lock_state: null,
    grid_lock_state: null,
  };
  #layoutMode: 0 | 1 | 2 = 0;
  #orientation: 0 | 1 = 1;

  constructor(private readonly options: RpcHostOptions) {}

  /** The session AUTHENTICATE opened, or null. */
  get session(): RpcSession | null {
    return this.#session;
  }

  /** Settings the activity made (SET_CONFIG, SET_ORIENTATION_LOCK_STATE). */
  get settings(): Readonly<FrameSettings> {
    return this.#settings;
  }

  /**
   * Handles one received message. Returns false when it was dropped: not from the iframe's
   * window, not from the expected origin, or not an RPC message at all.
   */
  receive(message: ReceivedMessage): boolean {
    const { source, origin } = this.options;
    if (message.source !== source) return this.#drop('source', message);
    if (message.origin !== origin) return this.#drop('origin', message);
    if (!Array.isArray(message.data) || message.data.length !== 2 || typeof message.data[0] !== 'number')
      return this.#drop('shape', message);
    const [opcode, payload] = message.data as [number, unknown];
    switch (opcode) {
      case OPCODES.HANDSHAKE:
        this.#handshake(payload);
        return true;
      case OPCODES.FRAME:
        void this.#command(payload);
        return true;
      case OPCODES.CLOSE:
        this.#ready = false;
        this.options.onClose?.((payload ?? { code: RPC_CLOSE_CODES.CLOSE_NORMAL }) as ClosePayload);
        return true;
      case OPCODES.HELLO:
        // The legacy greeting of older SDKs: nothing to answer.
        return true;
      default:
        return this.#drop('shape', message);
    }
  }

  /** The instance's participants changed: tell the activity if it listens. */
  participantsChanged(participants: RpcParticipant[]): void {
    this.#dispatch('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', { participants });
  }

  /** The host page changed the layout (0 focused, 1 picture-in-picture, 2 grid). */
  setLayoutMode(mode: 0 | 1 | 2): void {
    if (mode === this.#layoutMode) return;
    this.#layoutMode = mode;
    this.#dispatch('ACTIVITY_LAYOUT_MODE_UPDATE', { layout_mode: mode });
  }

  /** The screen's orientation changed (0 portrait, 1 landscape). */
  setOrientation(orientation: 0 | 1): void {
    if (orientation === this.#orientation) return;
    this.#orientation = orientation;
    this.#dispatch('ORIENTATION_UPDATE', {
      screen_orientation: orientation,
      orientation: orientation === 0 ? 'portrait' : 'landscape',
    });
  }

  /** A gateway dispatch for the session's user: becomes the RPC events the activity subscribed to. */
  platformEvent(type: string, data: unknown): void {
    const session = this.#session;
    if (!session) return;
    for (const e of translatePlatformEvent(type, data, session)) this.#dispatch(e.event, e.data, e.key);
    if (type === 'ACTIVITY_JOIN') this.#deliverJoin(session, data);
    const subscribed = this.#subscriptions.get('GUILD_STATUS') ?? new Set<string>();
    const changed = guildStatusChanges(type, data);
    for (const guildId of changed.includes('*') ? [...subscribed] : changed) {
      if (!subscribed.has(guildId)) continue;
      this.options.platform.guildStatus(session.access_token, guildId).then(
        (status) => this.#dispatch('GUILD_STATUS', status, guildId),
        () => undefined, // The guild went away or the token was revoked: no status to tell.
      );
    }
  }

  /** Someone started or stopped speaking in a call the activity watches: SPEAKING_START / SPEAKING_STOP. */
  speaking(change: SpeakingChange): void {
    const { user_id, channel_id, lobby_id } = change;
    const data = lobby_id !== undefined ? { lobby_id, user_id } : { channel_id: channel_id!, user_id };
    this.#dispatch(
      change.speaking ? 'SPEAKING_START' : 'SPEAKING_STOP',
      data,
      lobby_id !== undefined ? `lobby:${lobby_id}` : `channel:${channel_id}`,
    );
  }

  /** Ends the session from the host's side (CLOSE with `code`); `onHostClose` hears of it. */
  close(code: number = RPC_CLOSE_CODES.CLOSE_NORMAL, message = 'The host closed the activity.'): void {
    this.#end(code, message);
    this.options.onHostClose?.({ code, message });
  }

  /** Sends CLOSE and forgets the session. */
  #end(code: number, message: string): void {
    this.#ready = false;
    this.#session = null;
    this.#subscriptions.clear();
    this.#watchSpeakers();
    this.options.post([OPCODES.CLOSE, { code, message }]);
  }

  /**
   * The user joined this application's activity: an activity that listens claims the join (once,
   * whichever frame of the user asks first); one that does not yet finds it when it subscribes.
   */
  #deliverJoin(session: RpcSession, data: unknown): void {
    const d = (data ?? {}) as { user_id?: unknown; application_id?: unknown };
    if (d.user_id !== session.user.id || d.application_id !== session.application.id) return;
    if (!this.#subscriptions.get('ACTIVITY_JOIN')?.has('')) return;
    claimActivityJoin(this.#context()).then(
      (join) => join && this.#dispatch('ACTIVITY_JOIN', join),
      (error: unknown) => this.options.log?.(`platformpp: claiming an activity join failed: ${String(error)}`),
    );
  }

  #drop(reason: DropReason, message: ReceivedMessage): false {
    this.options.onDrop?.(reason, message);
    return false;
  }

  #handshake(payload: unknown): void {
    let handshake;
    try {
      handshake = validateRpc(HandshakeSchema, payload, 'handshake');
    } catch (error) {
      return this.#refuse(RPC_CLOSE_CODES.CLOSE_UNSUPPORTED, (error as Error).message);
    }
    if (handshake.client_id !== this.options.frame.application_id) {
      return this.#refuse(
        RPC_CLOSE_CODES.INVALID_CLIENT_ID,
        `Invalid client id: ${this.options.frame.application_id} runs in this frame, the activity sent ${handshake.client_id}`,
      );
    }
    if (handshake.frame_id !== this.options.frame.frame_id) {
      return this.#refuse(
        RPC_CLOSE_CODES.CLOSE_UNSUPPORTED,
        'The handshake frame_id is not the frame_id of this frame',
      );
    }
    // A handshake starts afresh: the activity reloaded (or a new SDK took over) and knows nothing.
    this.#session = null;
    this.#subscriptions.clear();
    this.#watchSpeakers();
    this.#ready = true;
    const user = this.options.frame.user;
    this.options.post([
      OPCODES.FRAME,
      {
        cmd: DISPATCH,
        evt: 'READY',
        nonce: null,
        data: {
          v: RPC_VERSION,
          config: { api_endpoint: this.options.apiEndpoint, environment: 'sandbox' },
          // The SDK's READY schema takes the avatar as a string or not at all.
          user: {
            id: user.id,
            username: user.username,
            discriminator: user.discriminator,
            ...(user.avatar ? { avatar: user.avatar } : {}),
          },
        },
      },
    ]);
    this.options.onHandshake?.({ accepted: true, sdk_version: handshake.sdk_version ?? null });
  }

  #refuse(code: number, message: string): void {
    this.#end(code, message);
    this.options.onHandshake?.({ accepted: false, code, message });
  }

  async #command(payload: unknown): Promise<void> {
    const raw = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
    let cmd = typeof raw.cmd === 'string' ? raw.cmd : 'UNKNOWN';
    let nonce = typeof raw.nonce === 'string' ? raw.nonce : null;
    try {
      const frame = validateRpc(CommandFrameSchema, payload, 'frame');
      cmd = frame.cmd;
      nonce = frame.nonce;
      if (!isCommand(cmd))
        throw ApiError.of(
          'RPC_INVALID_COMMAND',
          `${ApiError.of('RPC_INVALID_COMMAND').message}: ${cmd} is not a command`,
        );
      if (!this.#ready)
        throw ApiError.of(
          'RPC_INVALID_PERMISSIONS',
          `${ApiError.of('RPC_INVALID_PERMISSIONS').message}: send the HANDSHAKE first`,
        );
      if (!OPEN_COMMANDS.has(cmd)) {
        requireScopes(this.#session, COMMAND_SCOPES[cmd] ?? [], cmd);
        requireAnyScope(this.#session, COMMAND_ANY_SCOPES[cmd], cmd);
      }
      const args = validateRpc(COMMAND_ARGS[cmd], frame.args);
      const handler = COMMAND_HANDLERS[cmd] as (
        ctx: CommandContext,
        args: unknown,
        evt: string | null,
      ) => Promise<unknown>;
      const data = await handler(this.#context(), args, frame.evt ?? null);
      this.options.post([OPCODES.FRAME, { cmd, nonce, evt: null, data: data ?? null }]);
    } catch (error) {
      const rpc = toRpcError(error, this.options.log);
      this.options.post([OPCODES.FRAME, { cmd, nonce, evt: 'ERROR', data: { code: rpc.code, message: rpc.message } }]);
    }
  }

  /** Opens a speaking watch for each call a SPEAKING_* subscription names, and closes the others. */
  #watchSpeakers(): void {
    const wanted = new Set([
      ...(this.#subscriptions.get('SPEAKING_START') ?? []),
      ...(this.#subscriptions.get('SPEAKING_STOP') ?? []),
    ]);
    for (const [key, stop] of this.#speakingWatches) {
      if (wanted.has(key)) continue;
      this.#speakingWatches.delete(key);
      stop();
    }
    const watch = this.options.watchSpeaking;
    if (!watch) return;
    for (const key of wanted) {
      if (this.#speakingWatches.has(key)) continue;
      this.#speakingWatches.set(
        key,
        watch(key.slice(key.indexOf(':') + 1), (change) => this.speaking(change)),
      );
    }
  }

  #dispatch(event: SubscribableEvent, data: unknown, key = ''): void {
    if (!this.#ready || !this.#subscriptions.get(event)?.has(key)) return;
    this.options.post([OPCODES.FRAME, { cmd: DISPATCH, evt: event, nonce: null, data }]);
  }

  #context(): CommandContext {
    const host = this;
    return {
      frame: this.options.frame,
      platform: this.options.platform,
      ui: this.options.ui,
      get session() {
        return host.#session;
      },
      settings: this.#settings,
      participants: () => this.options.participants(),
      authenticate: (session) => {
        this.#session = session;
        this.options.onAuthenticated?.(session);
      },
      subscribe: (event, key) => {
        let keys = this.#subscriptions.get(event);
        if (!keys) this.#subscriptions.set(event, (keys = new Set()));
        keys.add(key);
        this.#watchSpeakers();
      },
      unsubscribe: (event, key) => {
        this.#subscriptions.get(event)?.delete(key);
        this.#watchSpeakers();
      },
      dispatch: (event, data, key) => this.#dispatch(event, data, key),
    };
  }
}
