/**
 * The media of one participant in one call: the microphone and the speakers (`CallAudio`), one
 * WebRTC link to each other participant (`PeerLink`), end-to-end encryption of every frame
 * (`E2eeSession` agreeing the keys, `FrameTransforms` applying them in a worker), and voice
 * activity from the measured microphone level, told to the call as Speaking (op 5).
 *
 * It speaks to the call only through the voice gateway messages its owner hands it (Clients
 * Connect and Client Disconnect as `participantJoined` / `participantLeft`, PEER_SIGNAL and
 * E2EE_MESSAGE as `receive`) and the `send` it is given, so it runs the same over the sandbox's
 * shared worker as over a server's voice gateway. Everything it is told before its microphone
 * is open waits, in order.
 */
import { VOICE_OPCODES as OP } from '../gateway/voice-protocol';
import { CallAudio } from './call-audio';
import { E2eeSession } from './e2ee-session';
import type { AudioPreferences, CallMediaOptions, CallMediaStats, PeerMediaStats } from './call-media-types';
import { emptyFrameStats } from './frame-transform-protocol';
import { FrameTransforms } from './frame-transforms';
import { PeerLink, type PeerSignal } from './peer-link';
import { SpeakingReporter } from './speaking-reporter';
import type { VadThresholdSettings } from './voice-activity';

export type { AudioPreferences, CallMediaOptions, CallMediaStats, PeerMediaStats } from './call-media-types';

/** One participant's media in one call. */
export class CallMedia {
  readonly e2ee: boolean;
  readonly audio = new CallAudio();
  readonly #transforms: FrameTransforms | null;
  readonly #keys: E2eeSession | null;
  readonly #links = new Map<string, PeerLink>();
  readonly #speaking: SpeakingReporter;
  readonly #ready: Promise<void>;
  #preferences: AudioPreferences;
  #muted = false;
  #deafened = false;
  readonly #volumes = new Map<string, number>();
  readonly #localMutes = new Set<string>();
  #closed = false;

  constructor(private readonly options: CallMediaOptions) {
    this.e2ee = options.e2ee;
    this.#preferences = { ...options.preferences };
    this.#transforms = options.e2ee ? new FrameTransforms() : null;
    const transforms = this.#transforms;
    this.#keys = transforms
      ? new E2eeSession(options.selfId, options.callId, {
          send: (to, data) => options.send(OP.E2EE_MESSAGE, to === null ? { data } : { user_id: to, data }),
          useSenderKey: (key, keyId) => transforms.useSenderKey(key, keyId),
          addReceiveKey: (userId, key, keyId) => transforms.addReceiveKey(userId, key, keyId),
          forgetParticipant: (userId) => transforms.forget(userId),
          warn: (message) => options.log.warning(message),
        })
      : null;
    this.#speaking = new SpeakingReporter({
      level: () => this.audio.inputLevel(),
      muted: () => this.#muted || this.#deafened,
      changed: (speaking) => options.speaking(options.selfId, speaking),
      send: options.send,
      ssrc: options.ssrc,
    });
    this.#ready = this.#start().catch((error: unknown) => {
      // The call goes on without this participant's media rather than with half of it.
      options.log.warning(`Voice: the media could not start: ${error instanceof Error ? error.message : error}`);
      void this.close();
    });
  }

  /** Resolves once the microphone is open (or known not to be) and the keys are made. */
  get ready(): Promise<void> {
    return this.#ready;
  }

  /** Someone is in the call (Clients Connect): a link to them. */
  participantJoined(userId: string): void {
    this.#after(() => void this.#link(userId));
  }

  /** Someone left (Client Disconnect): their link and keys go, and the keys rotate. */
  participantLeft(userId: string): void {
    this.#after(() => {
      this.#links.get(userId)?.close();
      this.#links.delete(userId);
      this.audio.removeRemote(userId);
      void this.#keys?.participantLeft(userId);
    });
  }

  /** A PEER_SIGNAL or E2EE_MESSAGE of the voice gateway. */
  receive(op: number, d: { user_id: string; signal?: PeerSignal; data?: string }): void {
    this.#after(() => {
      if (op === OP.PEER_SIGNAL && d.signal) this.#link(d.user_id).receive(d.signal);
      else if (op === OP.E2EE_MESSAGE && typeof d.data === 'string') {
        if (this.#keys) void this.#keys.receive(d.user_id, d.data);
      }
    });
  }

  /** Self mute and deafen, as the call has them: the peers hear nothing while either is on; nothing is heard while deafened. */
  setSelf(muted: boolean, deafened: boolean): void {
    this.#muted = muted;
    this.#deafened = deafened;
    this.audio.setTransmitting(!muted && !deafened);
    this.#applyOutput();
  }

  /** A participant's playout volume, 0 to 200. */
  setParticipantVolume(userId: string, volume: number): void {
    this.#volumes.set(userId, volume);
    this.#applyRemote(userId);
  }

  /** Whether this participant hears `userId` (a local mute: no one else is affected). */
  setLocalMute(userId: string, mute: boolean): void {
    if (mute) this.#localMutes.add(userId);
    else this.#localMutes.delete(userId);
    this.#applyRemote(userId);
  }

  /** The voice activity threshold. */
  setVadThreshold(automatic: boolean, threshold: number): void {
    this.#speaking.activity.setThreshold(automatic, threshold);
  }

  /** The voice activity threshold's settings. */
  get vadThreshold(): VadThresholdSettings {
    return this.#speaking.activity.settings;
  }

  /** Whether this participant speaks now, by voice activity. */
  get speaking(): boolean {
    return this.#speaking.activity.speaking;
  }

  /** New audio settings: volumes at once, the microphone or the output device changed when they differ. */
  async applyPreferences(preferences: AudioPreferences): Promise<void> {
    const before = this.#preferences;
    this.#preferences = { ...preferences };
    this.audio.setInputGain(preferences.inputVolume / 100);
    this.#applyOutput();
    await this.#ready;
    if (this.#closed) return;
    if (preferences.inputDeviceId !== before.inputDeviceId) await this.audio.useMicrophone(preferences.inputDeviceId);
    if (preferences.outputDeviceId !== before.outputDeviceId)
      await this.audio.setOutputDevice(preferences.outputDeviceId);
  }

  /** The level of `userId` in dBFS: this participant's microphone, or what arrives from another. */
  level(userId: string): number {
    return userId === this.options.selfId ? this.audio.inputLevel() : this.audio.remoteLevel(userId);
  }

  /** Links, encryption and frame counters, per participant. */
  async stats(): Promise<CallMediaStats> {
    const frames = (await this.#transforms?.stats()) ?? {};
    const peers: Record<string, PeerMediaStats> = {};
    for (const [userId, link] of this.#links) {
      const packets = await link.packets();
      peers[userId] = { ...emptyFrameStats(), ...frames[userId], ...packets, connection: link.state, e2ee: link.e2ee };
    }
    return { e2ee: this.e2ee, keyId: this.#keys?.keyId ?? 0, peers };
  }

  /** The verification code with `userId` (null without E2EE or their key). */
  verificationCode(userId: string): Promise<string | null> {
    return this.#keys?.verificationCode(userId) ?? Promise.resolve(null);
  }

  /** The next `count` frames from `userId` as they crossed the network (null without E2EE: nothing to inspect). */
  captureFrames(userId: string, count: number): Promise<ArrayBuffer[]> | null {
    return this.#transforms?.capture(userId, count) ?? null;
  }

  /**
   * How many of `frames` (as they crossed the network from `userId`) this participant's keys
   * decrypt: a way to show who can read what (0 without E2EE).
   */
  countDecryptable(userId: string, frames: ArrayBuffer[]): Promise<number> {
    return this.#transforms?.countDecryptable(userId, frames) ?? Promise.resolve(0);
  }

  /** Ends the media: links closed, keys wiped, microphone released. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#speaking.stop();
    for (const link of this.#links.values()) link.close();
    this.#links.clear();
    this.#keys?.close();
    this.#transforms?.close();
    await this.audio.close();
  }

  async #start(): Promise<void> {
    this.audio.setInputGain(this.#preferences.inputVolume / 100);
    this.#applyOutput();
    try {
      await this.audio.useMicrophone(this.#preferences.inputDeviceId);
    } catch (error) {
      // A participant without a microphone still hears the others (and sends silence).
      this.options.log.warning(
        `Voice: no microphone (${error instanceof Error ? error.message : error}); listening only.`,
      );
    }
    if (this.#preferences.outputDeviceId !== 'default')
      await this.audio.setOutputDevice(this.#preferences.outputDeviceId).catch((error: Error) => {
        this.options.log.warning(`Voice: output device ${this.#preferences.outputDeviceId}: ${error.message}`);
      });
    await this.#keys?.start();
    if (this.#closed) return;
    this.#speaking.start();
  }

  #link(userId: string): PeerLink {
    let link = this.#links.get(userId);
    if (link) return link;
    link = new PeerLink(userId, {
      selfId: this.options.selfId,
      e2ee: this.e2ee,
      transforms: this.#transforms,
      track: this.audio.track,
      stream: this.audio.stream,
      iceServers: this.options.iceServers ?? [],
      signal: (peer, signal) => this.options.send(OP.PEER_SIGNAL, { user_id: peer, signal }),
      remoteTrack: (peer, stream) => {
        this.audio.addRemote(peer, stream);
        this.#applyRemote(peer);
      },
      warn: (message) => this.options.log.warning(message),
    });
    this.#links.set(userId, link);
    link.start();
    return link;
  }

  #applyOutput(): void {
    this.audio.setOutputGain(this.#deafened ? 0 : this.#preferences.outputVolume / 100);
  }

  #applyRemote(userId: string): void {
    const volume = this.#localMutes.has(userId) ? 0 : (this.#volumes.get(userId) ?? 100);
    this.audio.setRemoteGain(userId, volume / 100);
  }

  #after(step: () => void): void {
    void this.#ready.then(() => {
      if (!this.#closed) step();
    });
  }
}
