/**
 * The types of a call's media (`CallMedia`): what it is given, the user's audio settings it
 * follows, and the stats it answers.
 */
import type { PeerFrameStats } from './frame-transform-protocol';

/** The user's audio settings, shared by their calls (`Client::SetInputDevice`, `SetInputVolume`...). */
export interface AudioPreferences {
  inputDeviceId: string;
  outputDeviceId: string;
  /** 0 to 100. */
  inputVolume: number;
  /** 0 to 200. */
  outputVolume: number;
}

/** What the media of a call is given. */
export interface CallMediaOptions {
  selfId: string;
  /** The call: a lobby's, a guild voice channel's or a DM channel's id (keys are bound to it). */
  callId: string;
  /** This participant's ssrc (Ready), named in Speaking. */
  ssrc: number;
  /** Whether to encrypt frames end to end (the browser must be able to). */
  e2ee: boolean;
  preferences: AudioPreferences;
  /** ICE servers; none by default (loopback and local network candidates only, which work offline). */
  iceServers?: RTCIceServer[];
  /** Sends a voice gateway payload. */
  send(op: number, d: unknown): void;
  /** This participant started or stopped speaking (by voice activity). */
  speaking(userId: string, speaking: boolean): void;
  log: { info(message: string): void; warning(message: string): void };
}

/** Where a participant's link and frames stand (`Call.getMediaStats`). */
export interface PeerMediaStats extends PeerFrameStats {
  connection: RTCPeerConnectionState;
  /** Whether frames with this participant are end-to-end encrypted (null until negotiated). */
  e2ee: boolean | null;
  /** RTP packets sent to and received from them (the frame counters stay 0 where nothing is transformed). */
  packetsSent: number;
  packetsReceived: number;
}

/** The media stats of a call. */
export interface CallMediaStats {
  /** Whether this participant encrypts frames end to end. */
  e2ee: boolean;
  /** The number of its current sender key (0 without E2EE). */
  keyId: number;
  peers: Record<string, PeerMediaStats>;
}
