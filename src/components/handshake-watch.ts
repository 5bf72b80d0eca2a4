/**
 * Whether an activity frame's page has shaken hands. The RPC is `connecting` until the page's
 * SDK sends HANDSHAKE; then it follows each HANDSHAKE the host answers (the page reloaded, or
 * a hot reload created the SDK again): `ready`, or `refused` when the host closed it (a wrong
 * client id). A page that loads and stays silent is told about on the console after
 * {@link HANDSHAKE_WAIT_MS}: the usual cause is an SDK created with another client id, or
 * none at all.
 */
import type { HandshakeOutcome } from '../rpc/host';

/** The RPC state of a frame's page. */
export type FrameRpcStatus = 'connecting' | 'ready' | 'refused';

/** How long after its page loaded a frame waits for the first HANDSHAKE before it says so on the console. */
export const HANDSHAKE_WAIT_MS = 5000;

/**
 * Follows one iframe's handshakes.
 * @example
 * const watch = new HandshakeWatch(iframe, (status) => (this.rpcStatus = status), (text) => console.warn(text));
 * new RpcHost({ ..., onHandshake: (outcome) => watch.handshake(outcome) });
 */
export class HandshakeWatch {
  #timer: ReturnType<typeof setTimeout> | null = null;
  #status: FrameRpcStatus = 'connecting';

  constructor(
    private readonly iframe: HTMLIFrameElement,
    private readonly onStatus: (status: FrameRpcStatus) => void,
    private readonly warn: (text: string) => void,
  ) {
    iframe.addEventListener('load', this.#loaded, { once: true });
    onStatus('connecting');
  }

  /** The RPC state now. */
  get status(): FrameRpcStatus {
    return this.#status;
  }

  /** The host answered a HANDSHAKE of the page. */
  handshake(outcome: HandshakeOutcome): void {
    this.#clear();
    this.#status = outcome.accepted ? 'ready' : 'refused';
    this.onStatus(this.#status);
  }

  /** Stops following the frame. */
  stop(): void {
    this.#clear();
    this.iframe.removeEventListener('load', this.#loaded);
  }

  // The SDK may be created after `load` (behind an await): wait a while before saying anything.
  readonly #loaded = (): void => {
    if (this.#status !== 'connecting') return;
    this.#timer = setTimeout(() => {
      this.warn(
        `platformpp: the activity at ${this.iframe.src} loaded but sent no HANDSHAKE within ${HANDSHAKE_WAIT_MS / 1000} s. Does it create the embedded-app SDK (new DiscordSDK(clientId)) with its application's id?`,
      );
    }, HANDSHAKE_WAIT_MS);
  };

  #clear(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
