/**
 * Events whose payload the code under test never reads: tests of the event log, its tail and the
 * webhook outbox append placeholders (a name the dispatch wire does not have, a partial payload)
 * that the typed wire refuses at compile time. The log stores and returns them as they are.
 */
import type { EmittedEvent, EventAudience, EventChannel, EventRecord } from '../../../src/store/records/events';

/**
 * An event to emit inside a write.
 * @example emit(placeholderEvent('A', 1));
 */
export function placeholderEvent(
  type: string,
  data: unknown,
  audience: EventAudience = {},
  channels?: EventChannel[],
): EmittedEvent {
  return { type, data, audience, ...(channels ? { channels } : {}) } as unknown as EmittedEvent;
}

/**
 * A log entry as it is stored.
 * @example await tx.append(placeholderRecord({ type: 'A', data: null, created_at: NOW }));
 */
export function placeholderRecord(fields: {
  seq?: number;
  type: string;
  data: unknown;
  audience?: EventAudience;
  channels?: EventChannel[];
  created_at: number;
}): EventRecord {
  return { audience: {}, channels: ['gateway'], ...fields } as unknown as EventRecord;
}
