/**
 * Commands the user answers in a dialog of the host page, as in the platform's client:
 * INITIATE_IMAGE_UPLOAD (the file picker; the image is uploaded and its ephemeral URL handed
 * over), OPEN_SHARE_MOMENT_DIALOG and SHARE_INTERACTION (the share dialog with the places the
 * platform offers) and INVITE_USER_EMBEDDED (the invite, confirmed). What the user chose goes
 * through the platform's API. A cancel gets the platform's answer: 1000 "Upload canceled",
 * `{success: false}`, 1000 "Failed to invite user"; OPEN_SHARE_MOMENT_DIALOG answers as soon as
 * the dialog is open, as the platform does, so it has none.
 */
import { ApiError, type ApiErrorName } from '../platform/core/errors';
import type { CommandContext, ShareChoice, ShareTargets } from './context';
import type { CommandMap } from './protocol';

const RPC = '/api/v10/rpc';

function rpcError(name: ApiErrorName, detail: string): ApiError {
  return ApiError.of(name, `${ApiError.of(name).message}: ${detail}`);
}

/** A refusal of the platform about an argument, named as the command's argument. */
function renamed(error: unknown, from: string, to: string): unknown {
  if (!(error instanceof ApiError) || error.code !== ApiError.of('RPC_INVALID_PAYLOAD').code) return error;
  return new ApiError(error.status, error.code, error.message.replace(`${from}:`, `${to}:`));
}

function application(ctx: CommandContext) {
  const { id, name } = ctx.session!.application;
  return { id, name };
}

/** INITIATE_IMAGE_UPLOAD: the user picks an image, the client uploads it, the activity gets its URL. */
export async function initiateImageUpload(ctx: CommandContext): Promise<CommandMap['INITIATE_IMAGE_UPLOAD']['data']> {
  const file = await ctx.ui.pickImage({ application: application(ctx) });
  if (!file) throw rpcError('RPC_UNKNOWN_ERROR', 'Upload canceled');
  const form = new FormData();
  form.set('file', file, file.name);
  try {
    const uploaded = await ctx.platform.request<{ url: string }>('POST', `${RPC}/image-uploads`, {
      token: ctx.session!.access_token,
      form,
    });
    return { image_url: uploaded.url };
  } catch (error) {
    // The platform's client answers every failed upload as an unknown error saying why.
    throw rpcError('RPC_UNKNOWN_ERROR', `Failed to upload image: ${(error as Error).message}`);
  }
}

/** The places the platform offers for a share from this frame (4000 naming `what` when it refuses the share). */
async function targetsFor(ctx: CommandContext, query: Record<string, string>, field: [string, string]) {
  const params = new URLSearchParams({ channel_id: ctx.frame.channel_id, ...query });
  try {
    return await ctx.platform.request<ShareTargets>('GET', `${RPC}/share-targets?${params}`, {
      token: ctx.session!.access_token,
    });
  } catch (error) {
    throw renamed(error, field[0], field[1]);
  }
}

/**
 * OPEN_SHARE_MOMENT_DIALOG: media of the platform's CDN (else 4000 naming `args.mediaUrl`) is
 * offered in the share dialog; the answer comes once the dialog is open. What the user picks is
 * posted then: in the channel with the file attached, or to the friend as a direct message.
 */
export async function openShareMomentDialog(
  ctx: CommandContext,
  args: CommandMap['OPEN_SHARE_MOMENT_DIALOG']['args'],
): Promise<null> {
  const targets = await targetsFor(ctx, { purpose: 'moment', media_url: args.mediaUrl }, [
    'media_url',
    'args.mediaUrl',
  ]);
  const token = ctx.session!.access_token;
  const share = async () => {
    const choice = await ctx.ui.chooseShareTarget({
      kind: 'moment',
      application: application(ctx),
      targets,
      image_url: args.mediaUrl,
    });
    if (choice)
      await ctx.platform.request('POST', `${RPC}/shared-moments`, {
        token,
        body: { media_url: args.mediaUrl, ...choice },
      });
  };
  share().catch((error: unknown) => {
    const { code, message } = error instanceof ApiError ? error : ApiError.of('RPC_UNKNOWN_ERROR');
    ctx.ui.backgroundError?.('OPEN_SHARE_MOMENT_DIALOG', { code, message });
  });
  return null;
}

/**
 * SHARE_INTERACTION: the application's chat command (else 4000 naming `args.command`) is offered
 * in the share dialog with its preview; the user's pick runs the command there as the user.
 * Answers `{success}` once the dialog closes: false when the user cancelled.
 */
export async function shareInteraction(
  ctx: CommandContext,
  args: CommandMap['SHARE_INTERACTION']['args'],
): Promise<CommandMap['SHARE_INTERACTION']['data']> {
  const targets = await targetsFor(ctx, { purpose: 'interaction', command: args.command }, ['command', 'args.command']);
  const channels = args.require_launch_channel
    ? targets.channels.filter((c) => c.id === ctx.frame.channel_id)
    : targets.channels;
  if (channels.length === 0)
    throw rpcError('RPC_INVALID_COMMAND', 'No channel found: the user may not use this application here');
  const choice: ShareChoice | null = await ctx.ui.chooseShareTarget({
    kind: 'interaction',
    application: application(ctx),
    targets: { channels, friends: [] },
    image_url: args.preview_image?.url,
    content: args.content,
    buttons: (args.components ?? []).flatMap((row) => (row.components ?? []).map((b) => b.label ?? b.custom_id ?? '')),
    command: args.command,
  });
  if (!choice || !('channel_id' in choice)) return { success: false };
  await ctx.platform.request('POST', `${RPC}/shared-interactions`, {
    token: ctx.session!.access_token,
    body: { channel_id: choice.channel_id, command: args.command, options: args.options ?? [] },
  });
  return { success: true };
}

/**
 * INVITE_USER_EMBEDDED: invites a user the client knows (else 4010) to the activity running in
 * this guild channel (else 4005): the user confirms, then the invite goes as a direct message.
 */
export async function inviteUserEmbedded(
  ctx: CommandContext,
  args: CommandMap['INVITE_USER_EMBEDDED']['args'],
): Promise<null> {
  if (!ctx.frame.guild_id) throw rpcError('RPC_INVALID_CHANNEL', 'Cannot send invite to a DM');
  const token = ctx.session!.access_token;
  const user = await ctx.platform.request<{ id: string; username: string; global_name: string | null } | null>(
    'GET',
    `${RPC}/users/${encodeURIComponent(args.user_id)}`,
    { token },
  );
  if (!user) throw rpcError('RPC_INVALID_USER', `the user ${args.user_id} is not someone this user knows`);
  const sent = await ctx.ui.confirmActivityInvite({ application: application(ctx), user, content: args.content });
  if (!sent) throw rpcError('RPC_UNKNOWN_ERROR', 'Failed to invite user: the user cancelled the invite');
  await ctx.platform.request('POST', `${RPC}/activity-invites`, {
    token,
    body: { user_id: user.id, channel_id: ctx.frame.channel_id, content: args.content },
  });
  return null;
}
