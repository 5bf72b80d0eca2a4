/**
 * A gateway session in memory: its persisted record (what Resume needs after a restart), the
 * channels it has been sent obfuscated, its resume points not yet stored, and the connection it
 * is attached to, if any.
 */
import type { GatewaySessionRecord } from '../store/schema';
import type { GatewayPayload } from './protocol';
import { ResumeMarks } from './resume-marks';

/** Where a session's payloads go: the connection it is attached to. */
export interface SessionSink {
  sendPayload(payload: GatewayPayload): void;
  /** Closes the connection with a gateway close code (4004 when the session's token is gone). */
  closeWith(code: number, reason?: string): void;
}

/** A live or detached session. */
export interface GatewaySession {
  record: GatewaySessionRecord;
  /** Channels sent obfuscated (mirrors `record.hidden_channel_ids`). */
  hidden: Set<string>;
  /** The attached connection; null while the client is away (the session can be resumed). */
  sink: SessionSink | null;
  /** The resume points numbered, acknowledged and due for deletion since the last write. */
  marks: ResumeMarks;
  /** The hidden channels as the record was last stored; null while the record is not stored as it is (new, resumed). */
  storedHidden: readonly string[] | null;
}

/** A session from its record; `stored` when the record is as the store has it. */
export function sessionFromRecord(record: GatewaySessionRecord, stored = false): GatewaySession {
  return {
    record,
    hidden: new Set(record.hidden_channel_ids),
    sink: null,
    marks: new ResumeMarks(record.session_id),
    storedHidden: stored ? record.hidden_channel_ids : null,
  };
}

/** Whether the session's record must be written with its next dispatches (new, resumed, its hidden channels changed). */
export function recordChanged(session: GatewaySession): boolean {
  const stored = session.storedHidden;
  return stored === null || stored.length !== session.hidden.size || stored.some((id) => !session.hidden.has(id));
}

/** The record to store for a session, with its current hidden set. */
export function sessionRecord(session: GatewaySession): GatewaySessionRecord {
  return { ...session.record, hidden_channel_ids: [...session.hidden] };
}

/**
 * The shard a guild's events go to: `(guild_id >> 22) % num_shards`, as the platform shards.
 * Events without a guild go to shard 0.
 */
export function onShard(shard: [number, number] | null, guildId: string | undefined): boolean {
  if (!shard) return true;
  const [id, count] = shard;
  if (!guildId) return id === 0;
  return Number((BigInt(guildId) >> 22n) % BigInt(count)) === id;
}
