/**
 * The activity side of the embedded-app RPC (CONTRACT §5): reads the frame's query parameters,
 * sends the HANDSHAKE to the host page, and exchanges FRAMEs with it. Every wait settles: READY
 * and each command reject after a timeout whose message says what was awaited and why it may
 * hang. Only messages from the host window and origin are read.
 */
import {
  DISPATCH,
  OPCODES,
  type ActivityPlatform,
  type Command,
  type CommandMap,
  type EventMap,
  type RpcEvent,
  type SubscribableEvent,
} from '../rpc/protocol';
import { createCommands, type ActivityCommands } from './commands';
import { RpcError, RpcTimeoutError } from './errors';
import { dispatchMatches, subscriptionKey, type Subscription } from './subscription-keys';
import { randomUuid } from '../wire/random-uuid';

/** The SDK's version, sent in the handshake. */
export const SDK_VERSION = '0.1.0';

/** Options of {@link ActivitySdk}. */
export interface ActivitySdkOptions {
  /** How long `ready()` waits for READY (default 10 s). */
  readyTimeoutMs?: number;
  /** How long a command waits for its reply (default 10 s). */
  commandTimeoutMs?: number;
  /**
   * How long a command a person answers in a dialog waits (AUTHORIZE, START_PURCHASE,
   * INITIATE_IMAGE_UPLOAD, SHARE_INTERACTION, INVITE_USER_EMBEDDED; default 5 min).
   */
  authorizeTimeoutMs?: number;
  /** The page's query string (default `location.search`). */
  search?: string;
  /** The host window (default `window.parent.opener ?? window.parent`). */
  host?: Window;
  /** The host page's origin (default: the referrer's origin, else this page's origin). */
  hostOrigin?: string;
  /** Where messages arrive (default `window`). */
  receiver?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
}

type Listener<E extends RpcEvent> = (data: EventMap[E]['data']) => void;
interface Pending {
  resolve(data: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** Commands a person answers in a dialog of the host page: they wait as long as AUTHORIZE. */
const PERSON_ANSWERS: ReadonlySet<string> = new Set([
  'AUTHORIZE',
  'START_PURCHASE',
  'INITIATE_IMAGE_UPLOAD',
  'SHARE_INTERACTION',
  'INVITE_USER_EMBEDDED',
]);

function requiredParam(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (!value)
    throw new Error(
      `${name} is missing from this page's URL: open the activity inside <pp-activity-frame>, which adds frame_id, instance_id and platform`,
    );
  return value;
}

/**
 * The SDK an activity creates once, with its application id.
 * @example
 * const sdk = new ActivitySdk(CLIENT_ID);
 * await sdk.ready();
 * const { code } = await sdk.commands.authorize({ client_id: CLIENT_ID, scope: ['identify'], response_type: 'code' });
 */
export class ActivitySdk {
  readonly frameId: string;
  readonly instanceId: string;
  readonly platform: ActivityPlatform;
  readonly guildId: string | null;
  readonly channelId: string | null;
  readonly locationId: string | null;
  readonly customId: string | null;
  readonly linkId: string | null;
  /** Every command as a method: `await sdk.commands.setActivity({ activity })`. */
  readonly commands: ActivityCommands = createCommands((cmd, args) => this.command(cmd, args));

  readonly #options: Required<Pick<ActivitySdkOptions, 'readyTimeoutMs' | 'commandTimeoutMs' | 'authorizeTimeoutMs'>>;
  readonly #host: Window | null;
  readonly #hostOrigin: string;
  readonly #receiver: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  readonly #pending = new Map<string, Pending & { cmd: string }>();
  /** Event listeners; `key` is the event and its arguments, as SUBSCRIBE was sent for them. */
  readonly #subscriptions: Subscription[] = [];
  /** Listeners of 'error' and 'close'. */
  readonly #listeners = new Map<string, Set<(data: never) => void>>();
  readonly #ready: Promise<EventMap['READY']['data']>;
  #readyData: EventMap['READY']['data'] | null = null;
  #closed: RpcError | null = null;

  constructor(
    readonly clientId: string,
    options: ActivitySdkOptions = {},
  ) {
    const params = new URLSearchParams(options.search ?? location.search);
    this.frameId = requiredParam(params, 'frame_id');
    this.instanceId = requiredParam(params, 'instance_id');
    const platform = requiredParam(params, 'platform');
    if (platform !== 'desktop' && platform !== 'mobile')
      throw new Error(`platform must be "desktop" or "mobile", not "${platform}"`);
    this.platform = platform;
    this.guildId = params.get('guild_id');
    this.channelId = params.get('channel_id');
    this.locationId = params.get('location_id');
    this.customId = params.get('custom_id');
    this.linkId = params.get('link_id');
    this.#options = { readyTimeoutMs: 10_000, commandTimeoutMs: 10_000, authorizeTimeoutMs: 300_000, ...options };
    const parent =
      typeof window !== 'undefined' && window.parent !== window ? (window.parent.opener ?? window.parent) : null;
    this.#host = options.host ?? parent;
    this.#hostOrigin = options.hostOrigin ?? (document.referrer ? new URL(document.referrer).origin : location.origin);
    this.#receiver = options.receiver ?? window;
    this.#receiver.addEventListener('message', this.#onMessage);
    this.#ready = this.#waitForReady();
    // Whoever awaits ready() (or a command) hears of a failure; nobody else must be told twice.
    this.#ready.catch(() => undefined);
    this.#post([
      OPCODES.HANDSHAKE,
      { v: 1, encoding: 'json', client_id: clientId, frame_id: this.frameId, sdk_version: SDK_VERSION },
    ]);
  }

  /** Resolves with READY's data once the host accepted the handshake; rejects after the timeout or a CLOSE. */
  ready(): Promise<EventMap['READY']['data']> {
    return this.#ready;
  }

  /** Whether READY arrived. */
  get isReady(): boolean {
    return this.#readyData !== null;
  }

  /**
   * Sends a command and resolves with the reply's data; an ERROR frame rejects with
   * {@link RpcError}, silence with {@link RpcTimeoutError}.
   */
  async command<C extends Command>(cmd: C, args?: CommandMap[C]['args'], evt?: string): Promise<CommandMap[C]['data']> {
    await this.#ready;
    if (this.#closed) throw this.#closed;
    const nonce = randomUuid();
    const dialog = PERSON_ANSWERS.has(cmd);
    const timeoutMs = dialog ? this.#options.authorizeTimeoutMs : this.#options.commandTimeoutMs;
    const reply = new Promise<unknown>((resolve, reject) => {
      const why = dialog
        ? `${cmd === 'AUTHORIZE' ? 'the consent dialog' : 'its dialog'} may still be open in the host page`
        : 'the host may not be listening any more (is this page still inside <pp-activity-frame>?) or the platform did not answer';
      const timer = setTimeout(() => {
        this.#pending.delete(nonce);
        reject(
          new RpcTimeoutError(`no reply to ${cmd} from the host after ${timeoutMs / 1000} s: ${why}`, cmd, timeoutMs),
        );
      }, timeoutMs);
      this.#pending.set(nonce, { cmd, resolve, reject, timer });
    });
    this.#post([OPCODES.FRAME, { cmd, args, nonce, ...(evt ? { evt } : {}) }]);
    return reply as Promise<CommandMap[C]['data']>;
  }

  /**
   * Listens to an event: the first listener of an event with these arguments sends SUBSCRIBE.
   * Resolves with a function that removes the listener (and unsubscribes after the last one).
   * @example const stop = await sdk.subscribe('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', ({ participants }) => render(participants));
   */
  async subscribe<E extends SubscribableEvent>(
    event: E,
    listener: Listener<E>,
    args?: EventMap[E]['args'],
  ): Promise<() => Promise<void>> {
    const subscription: Subscription = {
      event,
      args: (args ?? {}) as Record<string, unknown>,
      listener: listener as (data: never) => void,
      key: subscriptionKey(event, args),
    };
    const first = !this.#subscriptions.some((s) => s.key === subscription.key);
    this.#subscriptions.push(subscription);
    if (first) {
      try {
        await this.command('SUBSCRIBE', args as Record<string, unknown> | undefined, event);
      } catch (error) {
        this.#subscriptions.splice(this.#subscriptions.indexOf(subscription), 1);
        throw error;
      }
    }
    return () => this.unsubscribe(event, listener, args);
  }

  /** Removes a listener; after the last one of an event (with these arguments) sends UNSUBSCRIBE. */
  async unsubscribe<E extends SubscribableEvent>(
    event: E,
    listener: Listener<E>,
    args?: EventMap[E]['args'],
  ): Promise<void> {
    const key = subscriptionKey(event, args);
    const index = this.#subscriptions.findIndex((s) => s.listener === listener && s.key === key);
    if (index < 0) return;
    this.#subscriptions.splice(index, 1);
    if (this.#subscriptions.some((s) => s.key === key)) return;
    await this.command('UNSUBSCRIBE', args as Record<string, unknown> | undefined, event);
  }

  /** Listens to ERROR frames no command caused, or to the host's CLOSE (`'close'`). */
  on(event: 'error' | 'close', listener: (error: RpcError) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener as (data: never) => void);
    return () => void set.delete(listener as (data: never) => void);
  }

  /** Asks the host to close the activity, and stops listening. */
  close(code = 1000, message = 'The activity closed.'): void {
    this.#post([OPCODES.CLOSE, { code, message, nonce: randomUuid() }]);
    this.#shutdown(new RpcError(code, message, 'CLOSE'));
  }

  #waitForReady(): Promise<EventMap['READY']['data']> {
    const timeoutMs = this.#options.readyTimeoutMs;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete('READY');
        reject(
          new RpcTimeoutError(
            `no READY from the host after ${timeoutMs / 1000} s: is this page inside <pp-activity-frame>, with this client id as its application-id?`,
            'READY',
            timeoutMs,
          ),
        );
      }, timeoutMs);
      this.#pending.set('READY', { cmd: 'READY', resolve: resolve as (d: unknown) => void, reject, timer });
    });
  }

  #post(message: unknown): void {
    this.#host?.postMessage(message, this.#hostOrigin);
  }

  #emit(event: string, data: unknown): void {
    const subscribed = this.#subscriptions
      .filter((s) => s.event === event && dispatchMatches(s.args, data))
      .map((s) => s.listener);
    const listeners = [...(this.#listeners.get(event) ?? []), ...subscribed];
    for (const listener of listeners) {
      try {
        listener(data as never);
      } catch (error) {
        // A listener's bug is the activity's: report it without breaking the other listeners.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  #settle(nonce: string, outcome: { data: unknown } | { error: RpcError }): void {
    const pending = this.#pending.get(nonce);
    if (!pending) return;
    this.#pending.delete(nonce);
    clearTimeout(pending.timer);
    if ('error' in outcome) pending.reject(outcome.error);
    else pending.resolve(outcome.data);
  }

  #shutdown(error: RpcError): void {
    this.#closed = error;
    this.#receiver.removeEventListener('message', this.#onMessage);
    for (const nonce of [...this.#pending.keys()]) this.#settle(nonce, { error });
  }

  readonly #onMessage = (event: MessageEvent): void => {
    if (event.source !== this.#host || event.origin !== this.#hostOrigin) return;
    if (!Array.isArray(event.data) || event.data.length !== 2) return;
    const [opcode, payload] = event.data as [number, Record<string, any>];
    if (opcode === OPCODES.CLOSE) {
      const error = new RpcError(
        Number(payload?.code),
        `the host closed the connection (${payload?.code}): ${payload?.message ?? ''}`,
        'CLOSE',
      );
      this.#emit('close', error);
      this.#shutdown(error);
      return;
    }
    if (opcode !== OPCODES.FRAME || typeof payload !== 'object' || payload === null) return;
    if (payload.cmd === DISPATCH) {
      if (payload.evt === 'READY') {
        this.#readyData = payload.data;
        this.#settle('READY', { data: payload.data });
      } else {
        this.#emit(String(payload.evt), payload.data);
      }
      return;
    }
    if (payload.evt === 'ERROR') {
      const error = new RpcError(Number(payload.data?.code), String(payload.data?.message ?? ''), String(payload.cmd));
      if (payload.nonce) this.#settle(payload.nonce, { error });
      else this.#emit('error', error);
      return;
    }
    if (typeof payload.nonce === 'string') this.#settle(payload.nonce, { data: payload.data });
  };
}
