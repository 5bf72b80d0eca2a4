/**
 * Commands answered from what the platform's client knows of its user: GET_RELATIONSHIPS,
 * GET_USER, the quests (GET_QUEST, GET_QUEST_ENROLLMENT_STATUS, QUEST_START_TIMER) and
 * REQUEST_PROXY_TICKET_REFRESH; and the platform calls the activity's events need (the device's
 * thermal state, a quest's status, claiming an activity join). All through the host's own
 * `/rpc` routes with the activity's token, so the answers are the store's.
 */
import { ApiError } from '../platform/core/errors';
import type { CommandContext } from './context';
import type { CommandMap, EventMap } from './protocol';

const RPC = '/api/v10/rpc';
const enc = encodeURIComponent;

function token(ctx: CommandContext): string {
  return ctx.session!.access_token;
}

/** GET_RELATIONSHIPS: the user's relationships, friends with their presence. */
export function getRelationships(ctx: CommandContext): Promise<CommandMap['GET_RELATIONSHIPS']['data']> {
  return ctx.platform.request('GET', `${RPC}/relationships`, { token: token(ctx) });
}

/** GET_USER: a user the client knows, else null. */
export function getUser(ctx: CommandContext, id: string): Promise<CommandMap['GET_USER']['data']> {
  return ctx.platform.request('GET', `${RPC}/users/${enc(id)}`, { token: token(ctx) });
}

/** GET_QUEST: the application's quest for the user (4002 when none is offered). */
export function getQuest(ctx: CommandContext): Promise<CommandMap['GET_QUEST']['data']> {
  return ctx.platform.request('GET', `${RPC}/quest`, { token: token(ctx) });
}

/** GET_QUEST_ENROLLMENT_STATUS: whether and when the user enrolled (4002 "Quest not found" for another's). */
export function getQuestEnrollmentStatus(
  ctx: CommandContext,
  questId: string,
): Promise<CommandMap['GET_QUEST_ENROLLMENT_STATUS']['data']> {
  return ctx.platform.request('GET', `${RPC}/quests/${enc(questId)}/enrollment`, { token: token(ctx) });
}

/** QUEST_START_TIMER: starts counting the user's play (4002 unless enrolled). */
export function questStartTimer(
  ctx: CommandContext,
  questId: string,
): Promise<CommandMap['QUEST_START_TIMER']['data']> {
  return ctx.platform.request('POST', `${RPC}/quests/${enc(questId)}/timer`, { token: token(ctx) });
}

/** REQUEST_PROXY_TICKET_REFRESH: a fresh ticket the URL-mapping proxy takes. */
export function requestProxyTicketRefresh(
  ctx: CommandContext,
): Promise<CommandMap['REQUEST_PROXY_TICKET_REFRESH']['data']> {
  return ctx.platform.request('POST', `${RPC}/proxy-tickets`, { token: token(ctx) });
}

/** The user's device thermal state now (THERMAL_STATE_UPDATE on subscribe). */
export async function currentThermalState(ctx: CommandContext): Promise<0 | 1 | 2 | 3> {
  return (await ctx.platform.request<{ thermal_state: 0 | 1 | 2 | 3 }>('GET', `${RPC}/device`, { token: token(ctx) }))
    .thermal_state;
}

/** The user's pending join of the application, claimed for this activity (once), or null. */
export async function claimActivityJoin(ctx: CommandContext): Promise<EventMap['ACTIVITY_JOIN']['data'] | null> {
  const { activity_join } = await ctx.platform.request<{
    activity_join: { application_id: string; secret: string } | null;
  }>('POST', `${RPC}/activity-joins/claim`, { token: token(ctx) });
  return activity_join && { applicationId: activity_join.application_id, secret: activity_join.secret };
}

/**
 * A quest's enrollment as QUEST_ENROLLMENT_STATUS_UPDATE carries it, or null when the user is
 * not enrolled or the quest is not the application's: the public SDK's schema takes only an
 * enrolled status with a calendar date (`YYYY-MM-DD`), so nothing else can be dispatched.
 */
export async function questStatusEvent(ctx: CommandContext, questId: string) {
  try {
    const status = await getQuestEnrollmentStatus(ctx, questId);
    return status.is_enrolled && status.enrolled_at ? questEnrollmentEvent(status.quest_id, status.enrolled_at) : null;
  } catch (error) {
    if (error instanceof ApiError && error.code === ApiError.of('RPC_INVALID_COMMAND').code) return null;
    throw error;
  }
}

/** QUEST_ENROLLMENT_STATUS_UPDATE's data for an enrollment at `enrolledAt` (an ISO timestamp). */
export function questEnrollmentEvent(questId: string, enrolledAt: string) {
  return { quest_id: questId, is_enrolled: true, enrolled_at: enrolledAt.slice(0, 10) };
}
