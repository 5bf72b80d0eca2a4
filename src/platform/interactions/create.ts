/**
 * A simulated user interacts with an app (the platform client's part): invokes a command, uses
 * a component, submits a modal or types into an autocompleted option. The interaction is
 * stored (its token only as a hash), then delivered: over the gateway as INTERACTION_CREATE to
 * the app's bot sessions, or, when the app has an interactions endpoint URL, by a signed HTTP
 * POST instead (the two are mutually exclusive). The token travels only where it is needed: in
 * the HTTP request and in the answer to whoever created the interaction; the durable event log
 * never holds it, so INTERACTION_CREATE carries the interaction without `token`. An entry point
 * command whose handler is PLATFORM_LAUNCH_ACTIVITY is handled by the platform: the activity
 * launches and the app is not asked.
 */
import * as v from 'valibot';
import { snowflakeSchema } from '../core/schema-parts';
import { jsonObject } from '../core/json-object';
import { write } from '../../store/write';
import { COMMAND_TYPES, ENTRY_POINT_HANDLERS } from '../../store/records/commands';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { respondToInteraction, InteractionResponseSchema } from './callback';
import { commandData, componentData, type BuiltData } from './data';
import { deliverOverHttp, type InteractionDelivery } from './delivery';
import { launchActivity } from './launch';
import { activeEntitlements, attachmentSizeLimit, invokingMember, resolvePlace } from './place';
import { CALLBACK_TYPES, INTERACTION_TYPES, type InteractionRecord } from '../../store/records/interactions';
import { newInteractionToken } from './tokens';
import type { Interaction } from '../../store/records/dispatches';
import type { FetchLike } from '../oauth2/oidc';
import { modalSubmitData } from './modal-submit';
import { serializeUser } from '../accounts/users';

const snowflake = snowflakeSchema;
/** `POST /sandbox/interactions`. */
export const SandboxInteractionSchema = jsonObject({
  application_id: snowflake,
  user_id: snowflake,
  type: v.picklist([1, 2, 3, 4, 5], 'Value must be one of (1, 2, 3, 4, 5).'),
  guild_id: v.optional(snowflake),
  channel_id: v.optional(snowflake),
  locale: v.optional(v.pipe(v.string(), v.maxLength(16)), 'en-US'),
  data: v.optional(v.unknown()),
});
export type SandboxInteractionInput = v.InferOutput<typeof SandboxInteractionSchema>;

/** What the sandbox answers: the interaction as the app received it (token included, once) and how it was delivered. */
export interface CreatedInteraction {
  interaction: Record<string, unknown>;
  delivery: InteractionDelivery;
}

/**
 * Creates and delivers an interaction. `send` reaches interactions endpoints; `origin` is where
 * attachment URLs of inline responses point.
 * @example const { interaction } = await createInteraction(ctx, { application_id, user_id, type: 2, guild_id, data: { name: 'roll' } }, send, origin);
 */
export async function createInteraction(
  ctx: PlatformContext,
  input: SandboxInteractionInput,
  send: FetchLike,
  origin: string,
): Promise<CreatedInteraction> {
  if (input.type === INTERACTION_TYPES.PING)
    throw ApiError.invalidForm({
      type: 'PINGs are sent by the platform to validate an interactions endpoint, not by users.',
    });
  const application = await ctx.db.get('applications', input.application_id);
  if (!application) throw ApiError.of('UNKNOWN_APPLICATION');
  const user = await ctx.db.get('users', input.user_id);
  if (!user || user.bot)
    throw ApiError.invalidForm({ user_id: user ? 'Bots do not use interactions.' : 'Unknown user.' });
  const place = await resolvePlace(ctx, { application, user, guildId: input.guild_id, channelId: input.channel_id });
  const id = ctx.ids.next();
  const { token, hash } = await newInteractionToken();
  let built: BuiltData & { opener?: InteractionRecord };
  if (input.type === INTERACTION_TYPES.MESSAGE_COMPONENT) built = await componentData(ctx, place, input.data);
  else if (input.type === INTERACTION_TYPES.MODAL_SUBMIT) built = await modalSubmitData(ctx, place, input.data, id);
  else
    built = await commandData(ctx, place, input.data, {
      autocomplete: input.type === INTERACTION_TYPES.APPLICATION_COMMAND_AUTOCOMPLETE,
      interactionId: id,
    });
  const endpoint = await ctx.db.get('interaction_endpoints', application.id);
  const platformLaunch =
    built.command?.type === COMMAND_TYPES.PRIMARY_ENTRY_POINT &&
    built.command.handler === ENTRY_POINT_HANDLERS.PLATFORM_LAUNCH_ACTIVITY;
  const now = ctx.clock.now();
  const guild = place.guild?.guild;
  const wire: Interaction = {
    id,
    application_id: application.id,
    type: input.type,
    data: built.data,
    ...(guild ? { guild: { id: guild.id, locale: 'en-US', features: guild.features }, guild_id: guild.id } : {}),
    channel: place.channel
      ? {
          id: place.channel.id,
          type: place.channel.type,
          name: place.channel.name,
          guild_id: place.channel.guild_id,
          flags: place.channel.flags,
        }
      : { id: place.channelId, type: 1, recipients: [] },
    channel_id: place.channelId,
    ...(place.guild ? { member: invokingMember(place) } : { user: serializeUser(user) }),
    version: 1,
    ...(built.message ? { message: built.message } : {}),
    app_permissions: place.appPermissions.toString(),
    locale: input.locale,
    ...(guild ? { guild_locale: 'en-US' } : {}),
    entitlements: await activeEntitlements(ctx, place),
    authorizing_integration_owners: built.owners,
    context: place.context,
    attachment_size_limit: attachmentSizeLimit(ctx, place),
  };
  const record: InteractionRecord = {
    id,
    application_id: application.id,
    token_hash: hash,
    type: input.type,
    context: place.context,
    user_id: user.id,
    guild_id: guild?.id ?? null,
    channel_id: place.channelId,
    data: built.data,
    message_id: built.message?.id ?? built.opener?.message_id ?? null,
    authorizing_integration_owners: built.owners,
    user_install_only: Object.keys(built.owners).length === 1 && built.owners['1'] !== undefined,
    dm: place.guild === null,
    message_type: built.messageType,
    response: null,
    original_message_id: null,
    followup_message_ids: [],
    modal: null,
    activity_instance_id: null,
    created_at: now,
  };
  const delivery: InteractionDelivery = platformLaunch
    ? { via: 'platform' }
    : endpoint
      ? { via: 'http' }
      : { via: 'gateway' };
  await write(ctx, ['interactions', 'attachment_files', 'dm_channels'], async (tx, emit) => {
    if (place.dm && place.dmIsNew && !(await tx.store('dm_channels').get(place.dm.id)))
      await tx.store('dm_channels').add(place.dm);
    await Promise.all(built.files.map((f) => tx.store('attachment_files').add(f.record)));
    if (built.opener) {
      // A modal is submitted once.
      const opener = await tx.store('interactions').get(built.opener.id);
      if (!opener?.modal) throw ApiError.invalidForm({ 'data.custom_id': 'This modal was already submitted.' });
      await tx.store('interactions').put({ ...opener, modal: null });
    }
    if (platformLaunch) {
      record.response = { type: CALLBACK_TYPES.LAUNCH_ACTIVITY, at: now, loading: false, ephemeral: false };
      record.activity_instance_id = await launchActivity(tx, emit, record);
    }
    await tx.store('interactions').add(record);
    if (delivery.via === 'gateway') {
      emit({
        type: 'INTERACTION_CREATE',
        data: wire,
        audience: { user_ids: [place.bot.id], application_id: application.id },
      });
    }
  });
  const answer = { ...wire, token };
  if (delivery.via === 'http' && endpoint) {
    const { delivery: sent, inline } = await deliverOverHttp(ctx, send, endpoint, answer);
    Object.assign(delivery, sent);
    const parsed = inline === null ? null : v.safeParse(InteractionResponseSchema, inline);
    if (parsed?.success) {
      try {
        await respondToInteraction(ctx, record, parsed.output, { origin });
        delivery.inline_response_type = parsed.output.type;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        delivery.error = `The inline response was refused: ${error.message}`;
      }
    } else if (parsed && !parsed.success) delivery.error = 'The endpoint answered 200 without an interaction response.';
  }
  return { interaction: answer, delivery };
}
