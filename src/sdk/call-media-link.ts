/**
 * A call's media as the SDK holds it: the `CallMedia` of `src/media` (loaded on the first call,
 * so that the SDK's core carries no WebRTC code) once the voice gateway is Ready, and the
 * call's controls (participant volumes, local mutes, the voice activity threshold) kept here
 * so that they hold from the moment they are set, before the media exists and across its life.
 * Without a media factory (no WebRTC: Node, or `voice.media: false`) the call is signaling only
 * and every control is kept but acts on nothing.
 */
import type { AudioPreferences, CallMedia, CallMediaOptions, CallMediaStats } from '../media/call-media';
import type { VadThresholdSettings } from '../media/voice-activity';
import { VOICE_VAD_THRESHOLD_DEFAULT_DB } from '../platform/core/limits';

/** Makes the media of a call. */
export type CallMediaFactory = (options: CallMediaOptions) => Promise<CallMedia>;

/** What the media of a call is started with, besides what the link keeps. */
export type CallMediaStart = Omit<CallMediaOptions, 'e2ee' | 'preferences' | 'iceServers'>;

/** One call's media and controls. */
export class CallMediaLink {
  #media: Promise<CallMedia | null> = Promise.resolve(null);
  #current: CallMedia | null = null;
  #started = false;
  readonly #volumes = new Map<string, number>();
  readonly #localMutes = new Set<string>();
  #vad: VadThresholdSettings = { automatic: false, vadThreshold: VOICE_VAD_THRESHOLD_DEFAULT_DB };
  #self = { muted: false, deafened: false };

  constructor(
    private readonly factory: CallMediaFactory | null,
    /** Whether this client encrypts frames end to end (what Identify's `max_dave_protocol_version` says). */
    readonly e2ee: boolean,
    private readonly settings: { preferences(): AudioPreferences; iceServers?: RTCIceServer[] },
  ) {}

  /** Whether the call carries audio (WebRTC), rather than signaling only. */
  get carriesAudio(): boolean {
    return this.factory !== null;
  }

  /** The media, once made (null before, and for a signaling-only call). */
  get media(): CallMedia | null {
    return this.#current;
  }

  /** Starts the media, once per call: the voice gateway is Ready. */
  start(options: CallMediaStart, onError: (error: unknown) => void): void {
    if (!this.factory || this.#started) return;
    this.#started = true;
    this.#media = this.factory({
      ...options,
      e2ee: this.e2ee,
      preferences: this.settings.preferences(),
      iceServers: this.settings.iceServers,
    }).then(
      (media) => {
        this.#current = media;
        media.setSelf(this.#self.muted, this.#self.deafened);
        media.setVadThreshold(this.#vad.automatic, this.#vad.vadThreshold);
        for (const [userId, volume] of this.#volumes) media.setParticipantVolume(userId, volume);
        for (const userId of this.#localMutes) media.setLocalMute(userId, true);
        return media;
      },
      (error: unknown) => {
        onError(error);
        return null;
      },
    );
  }

  /** Runs `step` on the media once it exists, in the order steps were asked for. */
  with(step: (media: CallMedia) => unknown): void {
    void this.#media.then((media) => media && step(media));
  }

  /** Self mute and deafen, as the call has them. */
  setSelf(muted: boolean, deafened: boolean): void {
    this.#self = { muted, deafened };
    this.with((media) => media.setSelf(muted, deafened));
  }

  /** `userId`'s playout volume (0 to 200; 100 unchanged). */
  setVolume(userId: string, volume: number): void {
    this.#volumes.set(userId, volume);
    this.with((media) => media.setParticipantVolume(userId, volume));
  }

  /** `userId`'s playout volume. */
  volume(userId: string): number {
    return this.#volumes.get(userId) ?? 100;
  }

  /** Whether `userId` is muted for this participant only. */
  setLocalMute(userId: string, mute: boolean): void {
    if (mute) this.#localMutes.add(userId);
    else this.#localMutes.delete(userId);
    this.with((media) => media.setLocalMute(userId, mute));
  }

  /** Whether `userId` is muted for this participant only. */
  localMute(userId: string): boolean {
    return this.#localMutes.has(userId);
  }

  /** The voice activity threshold. */
  setVadThreshold(settings: VadThresholdSettings): void {
    this.#vad = { ...settings };
    this.with((media) => media.setVadThreshold(settings.automatic, settings.vadThreshold));
  }

  /** The voice activity threshold's settings. */
  get vadThreshold(): VadThresholdSettings {
    return { ...this.#vad };
  }

  /** New audio settings of the client (devices, volumes). */
  applyPreferences(preferences: AudioPreferences, onError: (error: unknown) => void): void {
    this.with((media) => media.applyPreferences(preferences).catch(onError));
  }

  /** Media stats (null without media). */
  async stats(): Promise<CallMediaStats | null> {
    const media = await this.#media;
    return media ? media.stats() : null;
  }

  /** Ends the media. */
  stop(): void {
    const media = this.#media;
    this.#media = Promise.resolve(null);
    this.#current = null;
    void media.then((m) => m?.close());
  }
}
