/**
 * The gateway audience of monetization events (ENTITLEMENT_*, SUBSCRIPTION_*).
 */
import type { ApplicationRecord } from '../../store/records/core';
import type { EventAudience } from '../../store/records/events';

/**
 * Who hears of a monetization event: the application's bot (its bot user, whatever the
 * session's intents) and the user concerned (their sessions of this application, which is how
 * an activity's RPC host hears of it); only sessions of this application.
 */
export function monetizationAudience(application: ApplicationRecord, userId: string | null): EventAudience {
  return {
    application_id: application.id,
    user_ids: userId === null ? [application.bot_user_id] : [userId, application.bot_user_id],
  };
}
