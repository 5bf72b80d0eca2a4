/**
 * The audio of one call in the page, on Web Audio:
 *
 *   microphone → input volume → [level: voice activity] → transmit (0 when muted) → track sent to every peer
 *   each peer's track → [level: what is heard of them] → their volume (0 when locally muted) → output volume (0 when deafened) → speakers
 *
 * The track sent never changes: choosing another microphone rewires the graph in front of it,
 * so no peer connection renegotiates. Levels are measured in dBFS with analysers; the output
 * device is the context's sink (`AudioContext.setSinkId`).
 */
import { levelDb } from './voice-activity';

/** Samples per level measurement: about 21 ms at 48 kHz. */
const LEVEL_WINDOW = 1024;

interface Remote {
  element: HTMLAudioElement;
  source: MediaStreamAudioSourceNode;
  analyser: AnalyserNode;
  gain: GainNode;
}

/** The microphone's constraints: a device, and the processing a voice call wants. */
function microphone(deviceId: string): MediaStreamConstraints {
  const device = deviceId && deviceId !== 'default' ? { deviceId: { exact: deviceId } } : {};
  return { audio: { ...device, echoCancellation: true, noiseSuppression: true, autoGainControl: true } };
}

/** One call's audio graph. */
export class CallAudio {
  readonly context = new AudioContext({ latencyHint: 'interactive' });
  readonly #inputGain = this.context.createGain();
  readonly #inputAnalyser = this.context.createAnalyser();
  readonly #transmit = this.context.createGain();
  readonly #outgoing = this.context.createMediaStreamDestination();
  readonly #output = this.context.createGain();
  readonly #outputAnalyser = this.context.createAnalyser();
  readonly #remotes = new Map<string, Remote>();
  readonly #samples = new Float32Array(LEVEL_WINDOW);
  #microphone: MediaStream | null = null;
  #source: MediaStreamAudioSourceNode | null = null;

  constructor() {
    for (const analyser of [this.#inputAnalyser, this.#outputAnalyser]) analyser.fftSize = LEVEL_WINDOW;
    this.#inputGain.connect(this.#inputAnalyser).connect(this.#transmit).connect(this.#outgoing);
    this.#output.connect(this.#outputAnalyser).connect(this.context.destination);
    // A context made without a user gesture starts suspended; the first gesture resumes it.
    if (this.context.state === 'suspended') {
      void this.context.resume();
      const resume = () => void this.context.resume();
      globalThis.addEventListener?.('pointerdown', resume, { once: true });
      globalThis.addEventListener?.('keydown', resume, { once: true });
    }
  }

  /** The track every peer receives (silence until a microphone is open, and while muted). */
  get track(): MediaStreamTrack {
    return this.#outgoing.stream.getAudioTracks()[0];
  }

  /** Its stream. */
  get stream(): MediaStream {
    return this.#outgoing.stream;
  }

  /** Opens the microphone `deviceId` ('default' for the system's) in place of the one open; rejects when it cannot be opened. */
  async useMicrophone(deviceId: string): Promise<void> {
    const stream = await navigator.mediaDevices.getUserMedia(microphone(deviceId));
    this.#source?.disconnect();
    for (const track of this.#microphone?.getTracks() ?? []) track.stop();
    this.#microphone = stream;
    this.#source = this.context.createMediaStreamSource(stream);
    this.#source.connect(this.#inputGain);
  }

  /** The device id of the microphone open (null when none is). */
  get microphoneId(): string | null {
    return this.#microphone?.getAudioTracks()[0]?.getSettings().deviceId ?? null;
  }

  /** Microphone volume, 0 to 1. */
  setInputGain(gain: number): void {
    this.#inputGain.gain.value = gain;
  }

  /** Whether the peers hear this participant (false: muted or deafened). */
  setTransmitting(on: boolean): void {
    this.#transmit.gain.value = on ? 1 : 0;
  }

  /** Speaker volume, 0 to 2 (0 when deafened). */
  setOutputGain(gain: number): void {
    this.#output.gain.value = gain;
  }

  /** Plays `peer`'s audio (in place of any before). */
  addRemote(peer: string, stream: MediaStream): void {
    this.removeRemote(peer);
    // Chromium feeds a remote WebRTC stream into Web Audio only while a media element plays it.
    const element = new Audio();
    element.muted = true;
    element.srcObject = stream;
    void element.play().catch(() => {});
    const source = this.context.createMediaStreamSource(stream);
    const analyser = this.context.createAnalyser();
    analyser.fftSize = LEVEL_WINDOW;
    const gain = this.context.createGain();
    source.connect(analyser).connect(gain).connect(this.#output);
    this.#remotes.set(peer, { element, source, analyser, gain });
  }

  /** Stops playing `peer`. */
  removeRemote(peer: string): void {
    const remote = this.#remotes.get(peer);
    if (!remote) return;
    this.#remotes.delete(peer);
    remote.source.disconnect();
    remote.gain.disconnect();
    remote.element.srcObject = null;
  }

  /** `peer`'s playout volume, 0 to 2 (0 when locally muted). */
  setRemoteGain(peer: string, gain: number): void {
    const remote = this.#remotes.get(peer);
    if (remote) remote.gain.gain.value = gain;
  }

  /** The microphone's level after the input volume, before muting, in dBFS. */
  inputLevel(): number {
    return this.#level(this.#inputAnalyser);
  }

  /** The level of what arrives from `peer`, before any volume, in dBFS (-Infinity when nothing does). */
  remoteLevel(peer: string): number {
    const remote = this.#remotes.get(peer);
    return remote ? this.#level(remote.analyser) : Number.NEGATIVE_INFINITY;
  }

  /** The level of what the speakers play, in dBFS. */
  outputLevel(): number {
    return this.#level(this.#outputAnalyser);
  }

  /** Plays through the output device `deviceId` ('default' for the system's). */
  async setOutputDevice(deviceId: string): Promise<void> {
    const context = this.context as AudioContext & { setSinkId?: (id: string) => Promise<void> };
    if (!context.setSinkId) throw new Error('This browser cannot choose an output device (AudioContext.setSinkId).');
    await context.setSinkId(deviceId === 'default' ? '' : deviceId);
  }

  /** Closes the microphone and the context. */
  async close(): Promise<void> {
    for (const peer of [...this.#remotes.keys()]) this.removeRemote(peer);
    for (const track of this.#microphone?.getTracks() ?? []) track.stop();
    this.#microphone = null;
    await this.context.close().catch(() => {});
  }

  #level(analyser: AnalyserNode): number {
    analyser.getFloatTimeDomainData(this.#samples);
    return levelDb(this.#samples);
  }
}
