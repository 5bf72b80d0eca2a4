/**
 * The audio link between this participant and one other: one `RTCPeerConnection` that sends
 * this participant's track and receives theirs, negotiated through PEER_SIGNAL messages on the
 * voice gateway. Of each pair, the participant with the lower user id offers and the other
 * answers, so the two never offer at once. Each offer and answer says whether its sender
 * encrypts frames end to end; frames between the two are encrypted when both do (from
 * 2026-03-01 the voice gateway admits only participants that do).
 *
 * The frame transforms are attached before the first frame can flow: the sender's and the
 * receiver's of a transceiver as this participant's track is added to it (Chromium ignores a
 * receiver transform set on the offerer's side once the answer arrived), or the receiver's as the
 * remote track appears on the answerer's side, in any case before the DTLS handshake ends.
 */
import type { VoicePeerSignalData } from '../gateway/voice-protocol';
import type { FrameTransforms } from './frame-transforms';

/** A signal for (or from) the other participant. */
export type PeerSignal = VoicePeerSignalData['signal'];

/** What a link needs of its call. */
export interface PeerLinkContext {
  selfId: string;
  /** Whether this participant encrypts frames (its transforms exist). */
  e2ee: boolean;
  transforms: FrameTransforms | null;
  /** The track this participant sends, and its stream. */
  track: MediaStreamTrack;
  stream: MediaStream;
  iceServers: RTCIceServer[];
  /** Sends a signal to `peer` through the voice gateway. */
  signal(peer: string, signal: PeerSignal): void;
  /** The other participant's audio arrived. */
  remoteTrack(peer: string, stream: MediaStream): void;
  warn(message: string): void;
}

/** One participant-to-participant audio link. */
export class PeerLink {
  readonly offerer: boolean;
  readonly #pc: RTCPeerConnection;
  #sending = false;
  readonly #transformed = new WeakSet<RTCRtpReceiver>();
  #queue: Promise<void> = Promise.resolve();
  #candidates: RTCIceCandidateInit[] = [];
  #e2ee: boolean | null = null;
  #closed = false;

  constructor(
    readonly peer: string,
    private readonly ctx: PeerLinkContext,
  ) {
    this.offerer = BigInt(ctx.selfId) < BigInt(peer);
    this.#pc = new RTCPeerConnection({ iceServers: ctx.iceServers, bundlePolicy: 'max-bundle' });
    this.#pc.addEventListener('icecandidate', ({ candidate }) => {
      if (!candidate?.candidate) return;
      ctx.signal(peer, {
        type: 'candidate',
        candidate: candidate.candidate,
        sdp_mid: candidate.sdpMid,
        sdp_m_line_index: candidate.sdpMLineIndex,
      });
    });
    this.#pc.addEventListener('track', ({ receiver, streams, track }) => {
      this.#transformReceiver(receiver);
      ctx.remoteTrack(peer, streams[0] ?? new MediaStream([track]));
    });
    this.#pc.addEventListener('connectionstatechange', () => {
      // A link that failed (a network change) gathers again; the offerer leads, as for the first offer.
      if (this.#pc.connectionState === 'failed' && this.offerer) this.#serial(() => this.#offer(true));
    });
  }

  /** Whether frames on this link are encrypted end to end (null until negotiated). */
  get e2ee(): boolean | null {
    return this.#e2ee;
  }

  /** The link's connection state. */
  get state(): RTCPeerConnectionState {
    return this.#pc.connectionState;
  }

  /** RTP packets sent to and received from the other participant (the browser's own counters). */
  async packets(): Promise<{ packetsSent: number; packetsReceived: number }> {
    let packetsSent = 0;
    let packetsReceived = 0;
    for (const report of (await this.#pc.getStats()).values()) {
      if (report.type === 'outbound-rtp') packetsSent += report.packetsSent ?? 0;
      if (report.type === 'inbound-rtp') packetsReceived += report.packetsReceived ?? 0;
    }
    return { packetsSent, packetsReceived };
  }

  /** Starts the link: the offerer offers; the other waits for the offer. */
  start(): void {
    if (this.offerer) this.#serial(() => this.#offer(false));
  }

  /** A signal from the other participant. */
  receive(signal: PeerSignal): void {
    this.#serial(async () => {
      if (signal.type === 'candidate') {
        const candidate = {
          candidate: signal.candidate,
          sdpMid: signal.sdp_mid,
          sdpMLineIndex: signal.sdp_m_line_index,
        };
        if (this.#pc.remoteDescription) await this.#pc.addIceCandidate(candidate);
        else this.#candidates.push(candidate);
        return;
      }
      if ((signal.type === 'offer') === this.offerer)
        return this.ctx.warn(`Voice: an unexpected ${signal.type} from ${this.peer} was ignored.`);
      this.#setMode(signal.e2ee);
      await this.#pc.setRemoteDescription({ type: signal.type, sdp: signal.sdp });
      for (const candidate of this.#candidates.splice(0)) await this.#pc.addIceCandidate(candidate);
      if (signal.type === 'answer') return;
      this.#send();
      await this.#pc.setLocalDescription(await this.#pc.createAnswer());
      this.ctx.signal(this.peer, { type: 'answer', sdp: this.#pc.localDescription!.sdp, e2ee: this.ctx.e2ee });
    });
  }

  /** Closes the link. */
  close(): void {
    this.#closed = true;
    this.#pc.close();
  }

  async #offer(iceRestart: boolean): Promise<void> {
    this.#send();
    await this.#pc.setLocalDescription(await this.#pc.createOffer({ iceRestart }));
    this.ctx.signal(this.peer, { type: 'offer', sdp: this.#pc.localDescription!.sdp, e2ee: this.ctx.e2ee });
  }

  /** Adds this participant's track, the transforms of its transceiver attached before any frame flows. */
  #send(): void {
    if (this.#sending) return;
    this.#sending = true;
    const sender = this.#pc.addTrack(this.ctx.track, this.ctx.stream);
    this.ctx.transforms?.attachSender(sender, this.peer);
    const transceiver = this.#pc.getTransceivers().find((t) => t.sender === sender);
    if (transceiver) this.#transformReceiver(transceiver.receiver);
  }

  #transformReceiver(receiver: RTCRtpReceiver): void {
    if (!this.ctx.transforms || this.#transformed.has(receiver)) return;
    this.#transformed.add(receiver);
    this.ctx.transforms.attachReceiver(receiver, this.peer);
  }

  /** Frames on this link are encrypted when both ends encrypt. */
  #setMode(peerEncrypts: boolean): void {
    this.#e2ee = this.ctx.e2ee && peerEncrypts;
    if (this.ctx.transforms) this.ctx.transforms.setMode(this.peer, this.#e2ee);
  }

  #serial(body: () => Promise<void>): void {
    this.#queue = this.#queue
      .then(() => (this.#closed ? undefined : body()))
      .catch((error: unknown) => {
        if (!this.#closed)
          this.ctx.warn(
            `Voice: the link with ${this.peer} failed a step: ${error instanceof Error ? error.message : error}`,
          );
      });
  }
}
