/**
 * A frame's speaking watches on the hub: who starts and stops speaking in the voice calls its
 * activity subscribed to (SPEAKING_START / SPEAKING_STOP), as the platform's client hears it
 * from the voice server. Each watch is a `MessagePort` to the hub (`HubApi.watchSpeaking`);
 * when the hub restarts, {@link SpeakingWatches.reopen} opens them again on the new one.
 */
import type * as Comlink from 'comlink';
import { transfer } from 'comlink';
import { pageOwner } from '../sockets/hub-link';
import type { SpeakingChange } from '../gateway/voice-speaking';
import type { HubApi, SpeakingPortEvent, SpeakingPortRequest } from '../hub/protocol';

interface Watch {
  callId: string;
  onChange: (change: SpeakingChange) => void;
  port: MessagePort | null;
}

/**
 * The watches of one frame.
 * @example
 * const watches = new SpeakingWatches(() => platform.hub);
 * const stop = watches.open(channelId, (change) => host.speaking(change));
 */
export class SpeakingWatches {
  readonly #watches = new Set<Watch>();

  /** @param hub the hub to watch on now (null where there is none: nothing is heard). */
  constructor(private readonly hub: () => Comlink.Remote<HubApi> | null) {}

  /** Watches the call `callId` (a guild voice channel's or a lobby's id); returns the function that stops. */
  open(callId: string, onChange: (change: SpeakingChange) => void): () => void {
    const watch: Watch = { callId, onChange, port: null };
    this.#watches.add(watch);
    this.#connect(watch);
    return () => {
      this.#watches.delete(watch);
      this.#disconnect(watch);
    };
  }

  /** The hub restarted: every watch opens again on the new one (the old ports went with the old hub). */
  reopen(): void {
    for (const watch of this.#watches) {
      this.#disconnect(watch);
      this.#connect(watch);
    }
  }

  /** Stops every watch. */
  close(): void {
    for (const watch of this.#watches) this.#disconnect(watch);
    this.#watches.clear();
  }

  #connect(watch: Watch): void {
    const hub = this.hub();
    if (!hub) return;
    const { port1, port2 } = new MessageChannel();
    watch.port = port1;
    port1.addEventListener('message', (event: MessageEvent<SpeakingPortEvent>) => watch.onChange(event.data));
    port1.start();
    // The page holds its lock before the hub watches it, else the hub would think it gone.
    void pageOwner()
      .then((owner) => hub.watchSpeaking(transfer(port2, [port2]), watch.callId, owner))
      .catch(() => undefined);
  }

  #disconnect(watch: Watch): void {
    const port = watch.port;
    watch.port = null;
    if (!port) return;
    port.postMessage({ type: 'close' } satisfies SpeakingPortRequest);
    port.close();
  }
}
