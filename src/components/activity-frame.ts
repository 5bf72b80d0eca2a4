/**
 * `<pp-activity-frame application-id guild-id channel-id user-id src platform>`: embeds an
 * activity (CONTRACT §5). It joins the activity instance of its application and channel (the
 * hub's registry, so frames in every page agree), loads the activity's page with `frame_id`,
 * `instance_id`, `platform`, `guild_id`, `channel_id` and `location_id` added to `src`'s own
 * query, and answers the page's RPC: only messages from its iframe's window and origin. When
 * the hub restarts (`pp-hub-restart`), it joins the new hub with the instance id it had.
 *
 * When the frame stops (removed, closed, restarted, its page hidden) or its page dies, the rich
 * presence its activity set is cleared (SET_ACTIVITY null), unless another frame of the user
 * runs the same application. The registry the frame leaves does it: the hub's, which also hears
 * of pages that died without a word (their Web Lock), writes it directly; a page without the
 * hub clears it over HTTP with the activity's token, as the activity's SET_ACTIVITY went.
 */
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { GatewaySocket } from '../sockets/gateway-socket';
import { RpcHost, type HandshakeOutcome } from '../rpc/host';
import { ActivityInstanceRegistry, type InstanceDirectory, type InstanceSnapshot } from '../rpc/instances';
import { PlatformClient } from '../rpc/platform-client';
import { OPCODES, type ActivityPlatform } from '../rpc/protocol';
import type { HostUi } from '../rpc/context';
import { createHostUi } from './activity-host-ui';
import { frameUrl } from './frame-url';
import { HandshakeWatch, type FrameRpcStatus } from './handshake-watch';
import { InstanceMembership } from './instance-membership';
import { listenToPlatform } from './platform-events';
import { SpeakingWatches } from './speaking-watches';
import { tapRpcWire } from './rpc-wire-tap';
import { serverInstances } from '../sockets/server-instances';
import type { PlatformElement } from './platform-element';
import { randomUuid } from '../wire/random-uuid';

/** A frame's state, reflected as its `status` attribute. */
export type ActivityFrameStatus = 'idle' | 'starting' | 'running' | 'closed' | 'error';

/** The tag of {@link ActivityFrame}. */
export const ACTIVITY_FRAME_TAG = 'pp-activity-frame';

/** How each authenticated frame of this page clears its activity's presence, by frame id. */
const presenceClearers = new Map<string, () => Promise<unknown>>();
/** Instances of frames in a page without the hub (no `<pp-platform>`, or no shared workers). */
const pageInstances = new ActivityInstanceRegistry(undefined, undefined, (left) => {
  if (left.last)
    void presenceClearers
      .get(left.frame_id)?.()
      .catch(() => undefined);
});
/** Every activity window a frame of this page created: their messages are their own frame's. */
const activityWindows = new WeakSet<object>();

/** The attributes whose change starts the activity afresh. */
const RESTARTING = ['applicationId', 'guildId', 'channelId', 'userId', 'src', 'platform'] as const;

/**
 * The activity frame element.
 * @example
 * <pp-activity-frame application-id="…" guild-id="…" channel-id="…"></pp-activity-frame>
 * frame.addEventListener('pp-activity-status', (e) => console.log(e.detail.status));
 */
export class ActivityFrame extends LitElement {
  static override properties = {
    applicationId: { type: String, attribute: 'application-id' },
    guildId: { type: String, attribute: 'guild-id' },
    channelId: { type: String, attribute: 'channel-id' },
    userId: { type: String, attribute: 'user-id' },
    src: { type: String },
    platform: { type: String },
    layoutMode: { type: Number, attribute: 'layout-mode' },
    locale: { type: String },
    status: { type: String, reflect: true },
    rpcStatus: { type: String, attribute: 'rpc-status', reflect: true },
    error: { attribute: false },
  };

  static override styles = css`
    :host { display: block; position: relative; min-height: 150px; }
    iframe { border: 0; width: 100%; height: 100%; min-height: inherit; display: block; }
    [part='message'] { position: absolute; inset: 0; display: grid; place-items: center; font: 13px system-ui, sans-serif; background: #f2f3f5; color: #1e1f22; padding: 1rem; text-align: center; }
  `;

  declare applicationId: string | null;
  declare guildId: string | null;
  declare channelId: string | null;
  /** The simulated user running the activity (default: `<pp-platform>`'s `currentUserId`). */
  declare userId: string | null;
  /** The activity's page (default `/activities/<application_id>/`). */
  declare src: string | null;
  declare platform: ActivityPlatform;
  /** 0 focused, 1 picture-in-picture, 2 grid: changes reach the activity as ACTIVITY_LAYOUT_MODE_UPDATE. */
  declare layoutMode: 0 | 1 | 2;
  /** The user's locale as USER_SETTINGS_GET_LOCALE answers it (default: the browser's). */
  declare locale: string | null;
  /**
   * START_PURCHASE's purchase dialog: resolves true to buy, false to close it. Without one the
   * purchase completes at once, as the platform's application test mode does.
   */
  confirmPurchase: HostUi['confirmPurchase'] | null = null;
  declare status: ActivityFrameStatus;
  /** The RPC of the page in the frame: `connecting` until its HANDSHAKE, then `ready` (or `refused`); null when stopped. */
  declare rpcStatus: FrameRpcStatus | null;
  declare error: string | null;
  /** Where instances are kept (default: the hub of `<pp-platform>`, else this page). */
  instances: InstanceDirectory | null = null;

  /** The RPC host while the activity runs. */
  host: RpcHost | null = null;
  /** The instance the frame belongs to while it runs. */
  instance: InstanceSnapshot | null = null;
  frameId: string | null = null;
  #run = 0;
  #membership: InstanceMembership | null = null;
  /** The `<pp-platform>` whose hub keeps the instance, while the frame runs on it. */
  #platform: PlatformElement | null = null;
  #resize: ResizeObserver | null = null;
  #stopPlatformEvents: (() => void) | null = null;
  #speakingWatches: SpeakingWatches | null = null;
  #handshakes: HandshakeWatch | null = null;
  /** The user the running activity runs as (for the RPC wire's records). */
  #runUserId: string | null = null;

  constructor() {
    super();
    this.applicationId = null;
    this.guildId = null;
    this.channelId = null;
    this.userId = null;
    this.src = null;
    this.platform = 'desktop';
    this.layoutMode = 0;
    this.locale = null;
    this.status = 'idle';
    this.rpcStatus = null;
    this.error = null;
  }

  /** The iframe the activity runs in. */
  get iframe(): HTMLIFrameElement | null {
    return this.renderRoot.querySelector('iframe');
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('message', this.#onMessage);
    addEventListener('pagehide', this.#onPageHide);
    addEventListener('pageshow', this.#onPageShow);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener('message', this.#onMessage);
    removeEventListener('pagehide', this.#onPageHide);
    removeEventListener('pageshow', this.#onPageShow);
    this.#stop();
  }

  protected override firstUpdated(): void {
    this.#resize = new ResizeObserver(([entry]) => {
      const { width, height } = entry.contentRect;
      this.host?.setOrientation(height > width ? 0 : 1);
    });
    this.#resize.observe(this);
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('layoutMode')) this.host?.setLayoutMode(this.layoutMode);
    // After this update, not inside it: starting changes `status`, which is another update.
    if (RESTARTING.some((name) => changed.has(name))) queueMicrotask(() => void this.#start());
  }

  override render() {
    const message =
      this.status === 'error'
        ? `The activity could not start: ${this.error}`
        : this.status === 'closed'
          ? 'The activity closed.'
          : null;
    return html`<iframe part="frame" title=${`Activity ${this.applicationId ?? ''}`} allow="autoplay; clipboard-write; fullscreen"></iframe>${message ? html`<div part="message" role="status">${message}</div>` : nothing}`;
  }

  async #start(): Promise<void> {
    this.#stop();
    const run = ++this.#run;
    if (!this.applicationId || !this.channelId) return this.#setStatus('idle');
    this.#setStatus('starting');
    try {
      const platformElement = (this.closest('pp-platform') ??
        document.querySelector('pp-platform')) as PlatformElement | null;
      const userId = this.userId ?? platformElement?.currentUserId;
      if (!userId) throw new Error('no user-id, and no <pp-platform current-user-id> to run as');
      await this.updateComplete;
      const iframe = this.iframe!;
      // The platform first: without its service worker the user cannot even be looked up.
      if (platformElement) await platformElement.whenReady();
      const client = new PlatformClient((request) => fetch(request), location.origin);
      const user = await client.participant(userId);
      const explicit = this.instances;
      // On a platform server, instances are the server's, shared by every device.
      const server = platformElement?.joinedServer ? serverInstances(platformElement.joinedServer.gateway_url) : null;
      // Read at each (re)join: after a restart `<pp-platform>`'s hub is the new one.
      const directory = (): InstanceDirectory =>
        explicit ?? server ?? (platformElement?.hub?.instances as InstanceDirectory | undefined) ?? pageInstances;
      const frameId = randomUuid();
      const appId = this.applicationId;
      const request = {
        application_id: this.applicationId,
        channel_id: this.channelId,
        guild_id: this.guildId,
        frame_id: frameId,
        user,
      };
      const membership = new InstanceMembership(directory, request, (snapshot) => {
        this.instance = snapshot;
        this.host?.participantsChanged(snapshot.participants);
      });
      const instance = await membership.join();
      if (run !== this.#run) return membership.leave();
      Object.assign(this, { frameId, instance });
      this.#runUserId = user.id;
      this.#membership = membership;
      this.#platform = platformElement;
      platformElement?.addEventListener('pp-hub-restart', this.#onHubRestart);
      // The voice server's Speaking reaches the page through the hub that runs the voice gateway.
      const speaking = (this.#speakingWatches = new SpeakingWatches(() => platformElement?.hub ?? null));
      const page = new URL(this.src ?? `/activities/${this.applicationId}/`, location.href);
      const handshakes = (this.#handshakes = new HandshakeWatch(
        iframe,
        (status) => (this.rpcStatus = status),
        (text) => console.warn(text),
      ));
      this.host = new RpcHost({
        frame: {
          frame_id: frameId,
          application_id: this.applicationId,
          instance_id: instance.instance_id,
          guild_id: this.guildId,
          channel_id: this.channelId,
          platform: this.platform,
          user,
          url: page.href,
        },
        source: iframe.contentWindow,
        origin: page.origin,
        post: (message) => {
          tapRpcWire({ frame_id: frameId, user_id: user.id, application_id: appId, direction: 'sent', message });
          iframe.contentWindow?.postMessage(message, page.origin);
        },
        platform: client,
        ui: createHostUi(this),
        participants: () => this.instance?.participants ?? [],
        apiEndpoint: `//${location.host}/api`,
        onDrop: (reason, message) => this.#fire('pp-rpc-dropped', { reason, origin: message.origin }),
        onClose: (payload) => this.#closed(payload.code, payload.message),
        onHostClose: (payload) => this.#closed(payload.code, payload.message),
        onHandshake: (outcome) => {
          handshakes.handshake(outcome);
          this.#handshook(outcome);
        },
        // A server's calls are heard from the server's voice gateway, this browser's from the hub's.
        watchSpeaking: (callId, onChange) =>
          server ? server.watchSpeaking(callId, onChange) : speaking.open(callId, onChange),
        onAuthenticated: (session) => {
          presenceClearers.set(frameId, () => client.setActivity(session.access_token, null));
          this.#stopPlatformEvents?.();
          const host = this.host;
          this.#stopPlatformEvents = listenToPlatform(
            session.access_token,
            (type, data) => host?.platformEvent(type, data),
            (url) => new GatewaySocket(url, undefined, { hubName: platformElement?.hubName }),
            // `ready`: from now on no change of the user's is missed; `resumed`: nor was any while disconnected.
            (status) => this.#fire('pp-platform-events', { status }),
          );
        },
      });
      this.host.setLayoutMode(this.layoutMode);
      // The host starts where the frame is now: a later resize reports only a real change.
      const { width, height } = this.getBoundingClientRect();
      if (width > 0 && height > 0) this.host.setOrientation(height > width ? 0 : 1);
      // On a platform server, the frame's requests and gateway go there too: the service worker
      // learns it before the frame's navigation, which carries the frame's id.
      await platformElement?.shareServerWithFrame(frameId);
      if (run !== this.#run) return;
      activityWindows.add(iframe.contentWindow!);
      iframe.src = frameUrl(page, {
        frame_id: frameId,
        instance_id: instance.instance_id,
        platform: this.platform,
        guild_id: this.guildId,
        channel_id: this.channelId,
      }).href;
      this.#setStatus('running');
    } catch (error) {
      if (run === this.#run) this.#setStatus('error', error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * Each HANDSHAKE starts the activity's RPC afresh (a reload, a hot reload): what its page
   * authenticated is gone, so the frame stops hearing the platform for it. A refused one says why.
   */
  #handshook(outcome: HandshakeOutcome): void {
    this.#stopPlatformEvents?.();
    this.#stopPlatformEvents = null;
    this.#fire('pp-activity-handshake', outcome);
    if (!outcome.accepted) {
      const reason = `its HANDSHAKE was refused (${outcome.code}): ${outcome.message}`;
      console.error(`platformpp: the activity in <pp-activity-frame application-id="${this.applicationId}"> ${reason}`);
      this.#setStatus('error', reason);
    } else if (this.status === 'error') this.#setStatus('running');
  }

  #stop(): void {
    this.#handshakes?.stop();
    this.#handshakes = null;
    this.rpcStatus = null;
    this.#stopPlatformEvents?.();
    this.#stopPlatformEvents = null;
    this.#membership?.leave();
    this.#membership = null;
    this.#speakingWatches?.close();
    this.#speakingWatches = null;
    if (this.frameId) presenceClearers.delete(this.frameId);
    this.#platform?.removeEventListener('pp-hub-restart', this.#onHubRestart);
    this.#platform = null;
    this.host = null;
    this.frameId = null;
    this.instance = null;
  }

  #closed(code: number, message?: string): void {
    this.#fire('pp-activity-close', { code, message: message ?? '' });
    this.#run++;
    this.#stop();
    const iframe = this.iframe;
    if (iframe) iframe.src = 'about:blank';
    this.#setStatus('closed');
  }

  readonly #onMessage = (event: MessageEvent): void => {
    const host = this.host;
    if (!host) return;
    const ours = event.source === this.iframe?.contentWindow;
    // Sibling frames' traffic is theirs; anything not shaped like the RPC and not from our
    // activity is some other script's business. Neither is worth a drop report.
    if (!ours && event.source && activityWindows.has(event.source)) return;
    if (ours && this.frameId && this.applicationId)
      tapRpcWire({
        frame_id: this.frameId,
        user_id: this.#runUserId ?? '',
        application_id: this.applicationId,
        direction: 'received',
        message: event.data,
      });
    if (
      !ours &&
      !(
        Array.isArray(event.data) &&
        event.data.length === 2 &&
        (Object.values(OPCODES) as unknown[]).includes(event.data[0])
      )
    )
      return;
    host.receive(event);
  };

  readonly #onPageHide = (): void => this.#stop();
  // The hub lost its registry, not the activity: rejoin with the same instance id, or start afresh.
  readonly #onHubRestart = (): void => {
    this.#speakingWatches?.reopen();
    void this.#membership?.rejoin().then(
      (kept) => void (kept || this.#start()),
      () => undefined,
    );
  };
  // A page restored from the back/forward cache left its instance when it was hidden: rejoin.
  readonly #onPageShow = (event: PageTransitionEvent): void => void (event.persisted && this.#start());

  #setStatus(status: ActivityFrameStatus, error: string | null = null): void {
    this.status = status;
    this.error = error;
    this.#fire('pp-activity-status', {
      status,
      error,
      instance_id: this.instance?.instance_id ?? null,
      frame_id: this.frameId,
    });
  }

  #fire(type: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }
}

/** Defines `<pp-activity-frame>` unless it already is. */
export function defineActivityFrame(): void {
  if (!customElements.get(ACTIVITY_FRAME_TAG)) customElements.define(ACTIVITY_FRAME_TAG, ActivityFrame);
}

declare global {
  interface HTMLElementTagNameMap {
    'pp-activity-frame': ActivityFrame;
  }
}
