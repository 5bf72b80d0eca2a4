/**
 * The wire between a call's page and its frame transform worker (the dedicated worker that
 * `RTCRtpScriptTransform` runs the end-to-end encryption in): what the page posts, what the
 * worker answers, and the options each transform is created with. Both ends import it.
 */

/** The options of one `RTCRtpScriptTransform`: a sender's (to `peer`) or a receiver's (from `peer`). */
export interface FrameTransformOptions {
  direction: 'send' | 'receive';
  /** The user id at the other end. */
  peer: string;
}

/** What the page posts to the worker. */
export type FrameTransformRequest =
  /** Encrypt every frame sent from now on with `key`, numbered `keyId`. */
  | { type: 'sender-key'; key: CryptoKey; keyId: number }
  /** Frames of `userId` numbered `keyId` decrypt with `key`. */
  | { type: 'receive-key'; userId: string; key: CryptoKey; keyId: number }
  /** `userId` left: their keys and counters go. */
  | { type: 'forget'; userId: string }
  /** Whether frames to and from `peer` are end-to-end encrypted (false: a peer that cannot encrypt, before 2026-03-01). */
  | { type: 'mode'; peer: string; e2ee: boolean }
  /** Answer the frame counters (`stats` reply with the same id). */
  | { type: 'stats'; id: number }
  /** Answer the next `count` frames from `peer` as they arrived, before decryption (`captured` reply). */
  | { type: 'capture'; id: number; peer: string; count: number }
  /** Answer how many of `frames` (as they arrived from `peer`) the keys held for `peer` decrypt (`decryptable` reply). */
  | { type: 'try-decrypt'; id: number; peer: string; frames: ArrayBuffer[] };

/** Frame counters of one peer. */
export interface PeerFrameStats {
  /** Frames sent to the peer encrypted. */
  framesEncrypted: number;
  /** Frames sent to the peer as they were (the peer does not encrypt). */
  framesSentPlain: number;
  /** Frames from the peer that decrypted. */
  framesDecrypted: number;
  /** Frames from the peer that did not decrypt: a wrong or old key, or altered on the way. Dropped. */
  framesUndecryptable: number;
  /** Frames from the peer under a key id never received. Dropped. */
  framesWithoutKey: number;
  /** Plain frames from a peer that should encrypt. Dropped. */
  framesUnencrypted: number;
  /** Plain frames from a peer that does not encrypt, played as they came. */
  framesReceivedPlain: number;
  /** The key id of the peer's last decrypted frame (0: none yet). */
  lastKeyId: number;
}

/** What the worker answers. */
export type FrameTransformReply =
  | { type: 'stats'; id: number; peers: Record<string, PeerFrameStats> }
  | { type: 'captured'; id: number; frames: ArrayBuffer[] }
  | { type: 'decryptable'; id: number; count: number };

/** Counters at zero. */
export function emptyFrameStats(): PeerFrameStats {
  return {
    framesEncrypted: 0,
    framesSentPlain: 0,
    framesDecrypted: 0,
    framesUndecryptable: 0,
    framesWithoutKey: 0,
    framesUnencrypted: 0,
    framesReceivedPlain: 0,
    lastKeyId: 0,
  };
}
