/**
 * What the platform tells its own client about the client's user, beyond the public gateway:
 * the dispatches only the client's sessions receive (`audience.client`), which the RPC host
 * turns into the events of the activities it runs. They travel the durable event log like
 * every other dispatch, so a client session that resumes misses none of them.
 */
import type { EventAudience } from '../../store/schema';
import type { ThermalState } from '../../store/records/activities';

/** The client dispatches and their data. */
export interface ClientEventMap {
  /** The user joined an activity (its Join button or an activity invite): the activity may claim the join. */
  ACTIVITY_JOIN: { user_id: string; application_id: string };
  /** The user enrolled in a quest of the application. */
  QUEST_ENROLLMENT_STATUS_UPDATE: {
    user_id: string;
    application_id: string;
    quest_id: string;
    is_enrolled: boolean;
    enrolled_at: string | null;
  };
  /** The user's device reports another thermal state. */
  THERMAL_STATE_UPDATE: { user_id: string; thermal_state: ThermalState };
}

/** A client dispatch's name. */
export type ClientEventType = keyof ClientEventMap;

/** The client dispatch names. */
export const CLIENT_EVENT_TYPES: readonly ClientEventType[] = [
  'ACTIVITY_JOIN',
  'QUEST_ENROLLMENT_STATUS_UPDATE',
  'THERMAL_STATE_UPDATE',
];

/**
 * Who receives a client dispatch about `userId`: that user's client sessions, of `applicationId`
 * only when the event concerns one application (a device's state concerns every one).
 * @example emit({ type: 'THERMAL_STATE_UPDATE', data, audience: clientAudience(userId) });
 */
export function clientAudience(userId: string, applicationId?: string): EventAudience {
  return applicationId === undefined
    ? { user_ids: [userId], client: true }
    : { user_ids: [userId], application_id: applicationId, client: true };
}
