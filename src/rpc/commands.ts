/**
 * Every command's handler and the scopes it needs. AUTHORIZE and AUTHENTICATE are open; every
 * other command needs the session AUTHENTICATE opened, plus the scopes listed here (the
 * platform's public embedded-app SDK documents them per command).
 */
import type * as v from 'valibot';
import { ApiError } from '../platform/core/errors';
import { redactSecrets } from '../platform/core/secrets';
import { authenticate, authorize } from './auth-commands';
import {
  getQuest,
  getQuestEnrollmentStatus,
  getRelationships,
  getUser,
  questStartTimer,
  requestProxyTicketRefresh,
} from './client-commands';
import { initiateImageUpload, inviteUserEmbedded, openShareMomentDialog, shareInteraction } from './dialog-commands';
import type { CommandContext } from './context';
import type { Command, CommandMap } from './protocol';
import type { COMMAND_ARGS } from './schemas';
import { subscribe, unsubscribe } from './subscriptions';

type Args<C extends Command> = v.InferOutput<(typeof COMMAND_ARGS)[C]>;
/** A command's handler: validated arguments in, the reply's `data` out. */
export type CommandHandler<C extends Command> = (
  ctx: CommandContext,
  args: Args<C>,
  evt: string | null,
) => Promise<CommandMap[C]['data']>;

/** Commands an activity may send without a session. */
// CAPTURE_LOG too: the public SDK forwards every console line from READY on, before AUTHENTICATE.
export const OPEN_COMMANDS: ReadonlySet<Command> = new Set(['AUTHORIZE', 'AUTHENTICATE', 'CAPTURE_LOG']);

/** Scopes each authenticated command needs beyond the session itself. */
export const COMMAND_SCOPES: Partial<Record<Command, readonly string[]>> = {
  SET_ACTIVITY: ['rpc.activities.write'],
  GET_CHANNEL: ['guilds'],
  GET_CHANNEL_PERMISSIONS: ['guilds.members.read'],
  USER_SETTINGS_GET_LOCALE: ['identify'],
  GET_RELATIONSHIPS: ['relationships.read'],
  GET_QUEST: ['identify'],
  GET_QUEST_ENROLLMENT_STATUS: ['identify'],
  QUEST_START_TIMER: ['identify'],
};

/** Commands that need at least one of several scopes (the platform's client accepts either). */
export const COMMAND_ANY_SCOPES: Partial<Record<Command, readonly string[]>> = {
  INVITE_USER_EMBEDDED: ['activities.invites.write', 'dm_channels.messages.write'],
};

function rpcError(name: Parameters<typeof ApiError.of>[0], detail: string): ApiError {
  return ApiError.of(name, `${ApiError.of(name).message}: ${detail}`);
}

/** GET_CHANNEL: a channel the user cannot see is an invalid channel, like an unknown one. */
async function getChannel(ctx: CommandContext, args: Args<'GET_CHANNEL'>): Promise<CommandMap['GET_CHANNEL']['data']> {
  try {
    return await ctx.platform.channel(ctx.session!.access_token, args.channel_id);
  } catch (error) {
    if (error instanceof ApiError && error.code === ApiError.of('RPC_INVALID_PERMISSIONS').code) {
      throw rpcError('RPC_INVALID_CHANNEL', 'the user cannot view this channel');
    }
    throw error;
  }
}

/**
 * START_PURCHASE: the SKU must be one the client sells for this application (else 4000 naming
 * args.sku_id); the host's purchase dialog decides, then the purchase completes on the platform
 * (a guild subscription for the activity's guild). Answers the entitlements granted, or null
 * when the user closed the dialog. ENTITLEMENT_CREATE reaches subscribers through the gateway.
 */
async function startPurchase(
  ctx: CommandContext,
  args: Args<'START_PURCHASE'>,
): Promise<CommandMap['START_PURCHASE']['data']> {
  const token = ctx.session!.access_token;
  const sku = (await ctx.platform.skus(token)).find((s) => (s as { id: string }).id === args.sku_id) as
    | { id: string; name: string; price: { amount: number; currency: string } }
    | undefined;
  if (!sku) throw rpcError('RPC_INVALID_PAYLOAD', 'args.sku_id: Unknown SKU of this application');
  const user = { id: ctx.session!.user.id, username: ctx.session!.user.username };
  if (
    ctx.ui.confirmPurchase &&
    !(await ctx.ui.confirmPurchase({ application_id: ctx.frame.application_id, sku, user }))
  )
    return null;
  return ctx.platform.purchase(token, sku.id, ctx.frame.guild_id);
}

/** Every command's handler. */
export const COMMAND_HANDLERS: { [C in Command]: CommandHandler<C> } = {
  AUTHORIZE: (ctx, args) => authorize(ctx, args),
  AUTHENTICATE: (ctx, args) => authenticate(ctx, args),
  SUBSCRIBE: (ctx, args, evt) => subscribe(ctx, evt, args),
  UNSUBSCRIBE: (ctx, args, evt) => unsubscribe(ctx, evt, args),
  SET_ACTIVITY: (ctx, args) => ctx.platform.setActivity(ctx.session!.access_token, args.activity),
  GET_CHANNEL: getChannel,
  GET_CHANNEL_PERMISSIONS: (ctx) => ctx.platform.channelPermissions(ctx.session!.access_token, ctx.frame.channel_id),
  GET_SKUS_EMBEDDED: async (ctx) => ({ skus: await ctx.platform.skus(ctx.session!.access_token) }),
  GET_ENTITLEMENTS_EMBEDDED: async (ctx) => ({
    entitlements: await ctx.platform.entitlements(ctx.session!.access_token),
  }),
  // The activity runs in a browser frame, not an iOS web view: the keyboard never resizes it.
  GET_PLATFORM_BEHAVIORS: async () => ({ iosKeyboardResizesView: false }),
  USER_SETTINGS_GET_LOCALE: async (ctx) => ({ locale: ctx.ui.locale() }),
  GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS: async (ctx) => ({ participants: ctx.participants() }),
  OPEN_EXTERNAL_LINK: async (ctx, args) => ({ opened: await ctx.ui.openExternalLink(args.url) }),
  OPEN_INVITE_DIALOG: async (ctx) => {
    await ctx.ui.openInviteDialog(ctx.frame);
    return null;
  },
  SHARE_LINK: async (ctx, args) => {
    const url = new URL(ctx.frame.url);
    if (args.custom_id !== undefined) url.searchParams.set('custom_id', args.custom_id);
    if (args.link_id !== undefined) url.searchParams.set('link_id', args.link_id);
    return ctx.ui.shareLink({
      message: args.message,
      custom_id: args.custom_id,
      link_id: args.link_id,
      url: url.toString(),
    });
  },
  START_PURCHASE: startPurchase,
  CAPTURE_LOG: async (ctx, args) => {
    // An activity may log anything, its own token included: nothing reaches a log unredacted.
    const token = ctx.session?.access_token;
    ctx.ui.captureLog(args.level, redactSecrets(token ? args.message.replaceAll(token, '[redacted]') : args.message));
    return null;
  },
  SET_CONFIG: async (ctx, args) => {
    ctx.settings.use_interactive_pip = args.use_interactive_pip;
    return { use_interactive_pip: ctx.settings.use_interactive_pip };
  },
  SET_ORIENTATION_LOCK_STATE: async (ctx, args) => {
    ctx.settings.lock_state = args.lock_state;
    ctx.settings.picture_in_picture_lock_state = args.picture_in_picture_lock_state ?? null;
    ctx.settings.grid_lock_state = args.grid_lock_state ?? null;
    return null;
  },
  ENCOURAGE_HW_ACCELERATION: async (ctx) => ({ enabled: await ctx.ui.hardwareAcceleration() }),
  GET_RELATIONSHIPS: (ctx) => getRelationships(ctx),
  GET_USER: (ctx, args) => getUser(ctx, args.id),
  GET_QUEST: (ctx) => getQuest(ctx),
  GET_QUEST_ENROLLMENT_STATUS: (ctx, args) => getQuestEnrollmentStatus(ctx, args.quest_id),
  QUEST_START_TIMER: (ctx, args) => questStartTimer(ctx, args.quest_id),
  INITIATE_IMAGE_UPLOAD: (ctx) => initiateImageUpload(ctx),
  OPEN_SHARE_MOMENT_DIALOG: (ctx, args) => openShareMomentDialog(ctx, args),
  SHARE_INTERACTION: (ctx, args) => shareInteraction(ctx, args),
  INVITE_USER_EMBEDDED: (ctx, args) => inviteUserEmbedded(ctx, args),
  REQUEST_PROXY_TICKET_REFRESH: (ctx) => requestProxyTicketRefresh(ctx),
};
