/**
 * The current user's voice, in one tab: the call they are in (a guild voice channel's or a
 * lobby's), placed with the package's game SDK `Client` as a game would, so that the demo
 * carries real audio between tabs, end to end encrypted; their self mute and deafen, which
 * act on the audio of every call (`setSelfMuteAll`, `setSelfDeafAll`); the microphone check
 * made when they join; and why a call ended, when nobody asked it to.
 *
 * The SDK client is made on the first join, with the demo user's own token of the platformpp
 * Client application, and connects its own gateway session (the SDK's calls need it); the
 * shell's session hears the voice states it causes like anyone else's. A user is in one call
 * at a time here, as in the platform's client: joining another leaves the first.
 * Fires `change` whenever any of it changes; levels and speaking are read from the `Call`.
 */
import { Client } from '../../src/sdk/client';
import { Call } from '../../src/sdk/call';
import { CallError, CallStatus } from '../../src/sdk/call-status';
import type { CallTarget } from '../../src/sdk/call-signaling';
import { LoggingSeverity } from '../../src/sdk/logger';
import { AuthorizationTokenType } from '../../src/sdk/types';
import { callEndedText } from './call-words';
import { checkMicrophone, type MicrophoneCheck } from './microphone';

export type { CallTarget } from '../../src/sdk/call-signaling';

/** Who the voice belongs to. */
export interface VoiceUser {
  applicationId: string;
  userId: string;
  /** The user's access token now (it is renewed when the sandbox clock expires it). */
  token(): string;
}

/**
 * One tab's voice.
 * @example
 * await client.voice.join({ guildId, channelId: gameRoomId });
 * client.voice.setMuted(true);
 * await client.voice.leave();
 */
export class DemoVoice extends EventTarget {
  /** The call the user is in or joining (null: none). */
  target: CallTarget | null = null;
  /** Self mute, for every call (kept between calls, as the platform's client keeps it). */
  muted = false;
  /** Self deafen, for every call. */
  deafened = false;
  /** The microphone check of the call now (null before it answered, and out of a call). */
  microphone: MicrophoneCheck | null = null;
  /** Why the last call ended without being asked to, in words, and which call it was; cleared by the next join. */
  problem: { channelId: string; message: string } | null = null;
  #client: Client | null = null;
  #connecting: Promise<Client> | null = null;
  #stopped = false;

  constructor(private readonly user: VoiceUser) {
    super();
  }

  /** The call the user is in now, once the SDK has it. */
  get call(): Call | null {
    return this.target ? this.callIn(this.target.channelId) : null;
  }

  /** The user's call when it is the one of `channelId` (a guild voice channel or a lobby), else null. */
  callIn(channelId: string): Call | null {
    if (this.target?.channelId !== channelId) return null;
    return this.#client?.getCall(channelId) ?? null;
  }

  /** Where the user's call stands: null out of a call; Joining until the SDK has placed it. */
  get status(): CallStatus | null {
    if (!this.target) return null;
    return this.call?.getStatus() ?? CallStatus.Joining;
  }

  /** Whether the user is in a call without a microphone (it sends silence, and they still hear). */
  get listeningOnly(): boolean {
    return this.target !== null && this.microphone !== null && this.microphone.state !== 'ready';
  }

  /**
   * Joins the call of `target` (leaving any other): checks the microphone, connects the SDK
   * client the first time, and places the call. Call it from the click that asks for it: the
   * browser may ask for the microphone, and starts audio more readily after a gesture. Rejects
   * when the call could not even be placed (the SDK refused it); a call that fails later ends
   * with its reason in `problem`.
   */
  async join(target: CallTarget): Promise<void> {
    if (this.target?.channelId === target.channelId) return;
    // Asked at once, while the click still counts as the user's.
    const microphone = checkMicrophone();
    if (this.target) await this.leave();
    this.target = target;
    this.microphone = null;
    this.problem = null;
    this.#changed();
    try {
      const checked = await microphone;
      if (this.target === target) this.microphone = checked;
      this.#changed();
      const client = await this.#connect();
      if (this.target !== target) return;
      // A guild voice channel's call, or a private call: a lobby's id is its channel.
      const call =
        target.guildId === null
          ? client.startCall(target.channelId)
          : client.joinVoiceChannel(target.guildId, target.channelId);
      call.setStatusChangedCallback((status, error, detail) => this.#statusChanged(call, status, error, detail));
      call.setParticipantChangedCallback(() => this.#changed());
      this.#changed();
    } catch (error) {
      if (this.target === target) this.#forget();
      throw error;
    }
  }

  /** Leaves the call (Disconnecting, then Disconnected: the others see the user go). */
  async leave(): Promise<void> {
    const target = this.target;
    if (!target) return;
    this.#forget();
    await this.#client?.endCall(target.channelId);
  }

  /** Self-mutes or unmutes: the others stop hearing the user at once, and see it in the member list. */
  setMuted(muted: boolean): void {
    this.muted = muted;
    this.#client?.setSelfMuteAll(muted);
    this.#changed();
  }

  /** Self-deafens or undeafens: the user hears no one, and no one hears them. */
  setDeafened(deafened: boolean): void {
    this.deafened = deafened;
    this.#client?.setSelfDeafAll(deafened);
    this.#changed();
  }

  /** The user's token was renewed: the SDK client takes the new one (it connects again with it). */
  tokenChanged(): void {
    void this.#client?.updateToken(AuthorizationTokenType.Bearer, this.user.token()).catch((error) => {
      console.warn('platformpp demo: the voice client did not take the renewed token', error);
    });
  }

  /** Leaves any call and lets the SDK client go (the tab's client stops, or the sandbox was reset). */
  stop(): void {
    this.#stopped = true;
    this.#forget();
    void this.#connecting?.then((client) => client.destroy()).catch(() => undefined);
  }

  #connect(): Promise<Client> {
    this.#connecting ??= (async () => {
      const client = new Client({ applicationId: this.user.applicationId, userId: this.user.userId });
      // The SDK's warnings (a microphone that did not open, a link that failed) go where a developer looks.
      client.addLogCallback((line) => console.warn(`platformpp demo voice: ${line}`), LoggingSeverity.Warning);
      await client.updateToken(AuthorizationTokenType.Bearer, this.user.token());
      await client.connect();
      if (this.#stopped) {
        await client.destroy();
        throw new Error('The page stopped its voice client.');
      }
      client.setSelfMuteAll(this.muted);
      client.setSelfDeafAll(this.deafened);
      this.#client = client;
      return client;
    })().catch((error: unknown) => {
      this.#connecting = null;
      throw error;
    });
    return this.#connecting;
  }

  #statusChanged(call: Call, status: CallStatus, error: CallError, detail: number): void {
    const channelId = call.getChannelId();
    // A call that failed stays Disconnected until it is ended: end it, and say why it failed.
    if (status === CallStatus.Disconnected && this.#client?.getCall(channelId) === call) {
      if (error !== CallError.None) this.problem = { channelId, message: callEndedText(error, detail) };
      if (this.target?.channelId === channelId) this.#forget();
      void this.#client.endCall(channelId);
    }
    this.#changed();
  }

  #forget(): void {
    this.target = null;
    this.microphone = null;
    this.#changed();
  }

  #changed(): void {
    this.dispatchEvent(new Event('change'));
  }
}
