/**
 * Voice of the game SDK `Client`, between `SocialLayerClient` and `Client`: calls (a lobby's or
 * a DM channel's, `startCall`, and a guild voice channel's, `joinVoiceChannel`) and the user's audio settings
 * (devices, volumes, mute and deafen across calls), under the names the platform SDK gives
 * them. In a browser a call carries audio between the participants' pages over WebRTC, every
 * frame end-to-end encrypted; where there is no WebRTC it is signaling only.
 */
import type { AudioPreferences } from '../media/call-media';
import type { Call } from './call';
import type { CallMediaFactory } from './call-media-link';
import { ClientAudio, listAudioDevices, type AudioDevice } from './client-audio';
import { ClientCalls } from './client-calls';
import { settle, type ClientOptions, type ClientResult } from './client-core';
import { SocialLayerClient } from './client-social-layer';
import { ErrorType, SdkError } from './errors';
import { REAL_TIMERS, type SocketFactory } from './socket';
import { Status } from './status';

/** GUILD_VOICE (2) and GUILD_STAGE_VOICE (13): the channels a call joins. */
const VOICE_CHANNEL_TYPES = [2, 13];

// Loaded on the first call, so that the SDK's core carries neither comlink nor WebRTC code.
const defaultVoiceSocketFactory: SocketFactory = async (url) =>
  new (await import('../sockets/voice-gateway-socket')).VoiceGatewaySocket(url);
const defaultMediaFactory: CallMediaFactory = async (options) =>
  new (await import('../media/call-media')).CallMedia(options);

/** Whether this environment can carry a call's audio, and encrypt its frames. */
function webrtc(): { media: boolean; e2ee: boolean } {
  const scope = globalThis as { RTCPeerConnection?: unknown; RTCRtpScriptTransform?: unknown; AudioContext?: unknown };
  const media = typeof scope.RTCPeerConnection === 'function' && typeof scope.AudioContext === 'function';
  return { media, e2ee: media && typeof scope.RTCRtpScriptTransform === 'function' };
}

/** Calls and audio settings; see `Client`. */
export class VoiceClient extends SocialLayerClient {
  readonly #calls: ClientCalls;
  readonly #audio: ClientAudio;
  #muteAll = false;
  #deafAll = false;
  #engineManagedAudioSession = false;

  constructor(options: ClientOptions = {}) {
    super(options);
    const voice = options.voice ?? {};
    const can = webrtc();
    const media = voice.media === false || !can.media ? null : (voice.mediaFactory ?? defaultMediaFactory);
    this.#audio = new ClientAudio((preferences) => this.#calls.preferencesChanged(preferences));
    this.#calls = new ClientCalls({
      voiceSocketFactory: options.voiceSocketFactory ?? defaultVoiceSocketFactory,
      timers: options.timers ?? REAL_TIMERS,
      log: this.log,
      reconnectDelayMs: options.reconnectDelayMs ?? ((n) => Math.min(500 * 2 ** n, 4000)),
      userId: () => this.events.currentUser?.id,
      ready: () => this.link.status === Status.Ready,
      sendVoiceState: (d) => this.link.sendCommand(4, d),
      checkCall: (target) =>
        target.guildId === null
          ? this.#checkPrivateCall(target.channelId)
          : this.#checkVoiceChannel(target.guildId, target.channelId),
      // A client without media sends no frame at all: nothing of it is unencrypted.
      e2ee:
        media === null ? voice.e2ee !== false : voice.e2ee !== false && (can.e2ee || voice.mediaFactory !== undefined),
      media,
      iceServers: voice.iceServers,
      preferences: () => this.#audio.preferences,
    });
    this.events.voice = (dispatch) => this.#calls.dispatch(dispatch.t, dispatch.d);
  }

  /**
   * Starts (joins) a private call and answers its `Call`, Joining: a lobby's (`lobbyId`), or a
   * DM channel's (a call with a friend: the id of the DM channel `getUserMessageSummaries`'
   * conversations are kept in). The channel's existing call if there is one, whatever its status
   * (a Disconnected call is recovered by `endCall` and a new `startCall`). Needs a Ready client.
   * @example const call = client.startCall(lobby.id); call.setStatusChangedCallback((s) => render(s));
   */
  startCall(channelId: string): Call {
    return this.#start({ guildId: null, channelId }, 'startCall');
  }
  /**
   * Joins a guild's voice channel (the token needs the `guilds` scope, which `sdk.social_layer`
   * includes; the user needs VIEW_CHANNEL and CONNECT there) and answers its `Call`.
   * @example const call = client.joinVoiceChannel(guild.id, voiceChannel.id);
   */
  joinVoiceChannel(guildId: string, channelId: string): Call {
    return this.#start({ guildId, channelId }, 'joinVoiceChannel');
  }
  /** Ends the channel's call (Disconnecting, then Disconnected) and forgets it; the callback runs once it is ended. */
  endCall(channelId: string, callback?: (result: ClientResult) => void): Promise<void> {
    return settle(
      this.run(async () => this.#calls.end(channelId)),
      callback,
    );
  }
  /** Ends every call. */
  endCalls(callback?: (result: ClientResult) => void): Promise<void> {
    return settle(
      this.run(async () => this.#calls.all().forEach((call) => this.#calls.end(call.getChannelId()))),
      callback,
    );
  }
  /** The channel's call until it is ended; undefined otherwise. */
  getCall(channelId: string): Call | undefined {
    return this.#calls.get(channelId);
  }
  /** Every call not yet ended. */
  getCalls(): Call[] {
    return this.#calls.all();
  }

  /** The microphones the browser offers. */
  getInputDevices(callback?: (devices: AudioDevice[]) => void): Promise<AudioDevice[]> {
    return this.#devices(listAudioDevices('audioinput'), callback);
  }
  /** The speakers the browser offers. */
  getOutputDevices(callback?: (devices: AudioDevice[]) => void): Promise<AudioDevice[]> {
    return this.#devices(listAudioDevices('audiooutput'), callback);
  }
  /** The microphone the calls use. */
  getCurrentInputDevice(callback?: (device: AudioDevice) => void): Promise<AudioDevice> {
    return this.#devices(this.#audio.current('audioinput'), callback);
  }
  /** The speakers the calls use. */
  getCurrentOutputDevice(callback?: (device: AudioDevice) => void): Promise<AudioDevice> {
    return this.#devices(this.#audio.current('audiooutput'), callback);
  }
  /** Uses the microphone `deviceId` (one `getInputDevices` lists) in every call, at once. */
  setInputDevice(deviceId: string, callback?: (result: ClientResult) => void): Promise<void> {
    return settle(this.#audio.use('audioinput', deviceId), callback);
  }
  /** Plays every call through the speakers `deviceId` (one `getOutputDevices` lists). */
  setOutputDevice(deviceId: string, callback?: (result: ClientResult) => void): Promise<void> {
    return settle(this.#audio.use('audiooutput', deviceId), callback);
  }
  /** Microphone volume in percent, 0 to 100. */
  setInputVolume(volume: number): void {
    this.#audio.setInputVolume(volume);
  }
  /** The microphone volume. */
  getInputVolume(): number {
    return this.#audio.preferences.inputVolume;
  }
  /** Speaker volume in percent, 0 to 200. */
  setOutputVolume(volume: number): void {
    this.#audio.setOutputVolume(volume);
  }
  /** The speaker volume. */
  getOutputVolume(): number {
    return this.#audio.preferences.outputVolume;
  }
  /** Self-mutes (or unmutes) the user in every call, overriding each call's own setting. */
  setSelfMuteAll(mute: boolean): void {
    this.#muteAll = mute === true;
    for (const call of this.#calls.all()) call.setSelfMute(this.#muteAll);
  }
  /** Whether `setSelfMuteAll(true)` is in force. */
  getSelfMuteAll(): boolean {
    return this.#muteAll;
  }
  /** Self-deafens (or undeafens) the user in every call, overriding each call's own setting. */
  setSelfDeafAll(deaf: boolean): void {
    this.#deafAll = deaf === true;
    for (const call of this.#calls.all()) call.setSelfDeaf(this.#deafAll);
  }
  /** Whether `setSelfDeafAll(true)` is in force. */
  getSelfDeafAll(): boolean {
    return this.#deafAll;
  }
  /** The audio settings every call uses now. */
  getAudioPreferences(): AudioPreferences {
    return this.#audio.preferences;
  }

  /**
   * Whether the game engine, not the SDK, manages the audio session (a mobile concern of voice:
   * iOS's AVAudioSession). Recorded and readable; a browser page has no audio session to manage.
   */
  setEngineManagedAudioSession(engineManaged: boolean): void {
    if (typeof engineManaged !== 'boolean')
      throw SdkError.validation('setEngineManagedAudioSession() takes a boolean.');
    this.#engineManagedAudioSession = engineManaged;
    this.log.info(
      `SetEngineManagedAudioSession: ${engineManaged ? 'the engine manages' : 'the SDK would manage'} the audio session; a browser has none to manage.`,
    );
  }
  /** The value of `setEngineManagedAudioSession` (false unless set). */
  getEngineManagedAudioSession(): boolean {
    return this.#engineManagedAudioSession;
  }

  /** Also ends every call. */
  override async destroy(): Promise<void> {
    for (const call of this.#calls.all()) this.#calls.end(call.getChannelId());
    await super.destroy();
  }

  /** A connection that ended takes the calls with it (they read Disconnected until ended and joined again). */
  protected override connectionStatusChanged(status: Status): void {
    if (status === Status.Disconnected) this.#calls.connectionLost();
  }

  #start(target: { guildId: string | null; channelId: string }, operation: string): Call {
    if (this.destroyed)
      throw new SdkError({ type: ErrorType.ClientDestroyed, message: 'This Client was destroyed; create a new one.' });
    return this.#calls.start(target, operation, { self_mute: this.#muteAll, self_deaf: this.#deafAll });
  }

  /** One of the user's DM channels, else a lobby the user is a member of (the lobby's refusal otherwise). */
  async #checkPrivateCall(channelId: string): Promise<void> {
    // The DM channels first: a lobby call's own check then answers alone, without a 404 logged on the way.
    const channels = await this.http.call<{ id: string }[]>('GET', '/users/@me/channels').catch(() => []);
    if (!channels.some((c) => c.id === channelId)) await this.http.call('GET', `/lobbies/${channelId}`);
  }

  /** A guild voice channel the user can see (404 otherwise; 400 for a channel that is not a voice channel). */
  async #checkVoiceChannel(guildId: string, channelId: string): Promise<void> {
    const channels = await this.http.call<{ id: string; type: number }[]>('GET', `/guilds/${guildId}/channels`);
    const channel = channels.find((c) => c.id === channelId);
    if (!channel)
      throw new SdkError({ type: ErrorType.HTTPError, status: 404, code: 10003, message: 'Unknown channel.' });
    if (!VOICE_CHANNEL_TYPES.includes(channel.type))
      throw new SdkError({ type: ErrorType.ValidationError, status: 400, message: 'Not a voice channel.' });
  }

  #devices<T>(promise: Promise<T>, callback?: (value: T) => void): Promise<T> {
    if (callback) promise.then(callback, (error: unknown) => this.log.error(`Audio devices: ${String(error)}`));
    return promise;
  }
}
