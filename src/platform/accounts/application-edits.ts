/**
 * `PATCH /applications/@me` and `PATCH /applications/{id}` for the application's own bot: the
 * fields the platform's docs let it edit that the sandbox keeps — the description (400
 * characters), up to 5 tags of 20 characters, the custom install URL, the role connections
 * verification URL, the default install params and the per-context install params, the
 * interactions endpoint URL (validated with a signed PING, as on the platform), and the flags,
 * of which only the three *_LIMITED intent flags may be changed. Icons, cover images and event
 * webhooks are not taken here (the last are set with the sandbox's event-webhooks route).
 */
import { write } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import type { FetchLike } from '../oauth2/oidc';
import { ApiError } from '../core/errors';
import { APPLICATION_FLAGS, type ApplicationRecord } from '../../store/records/core';
import { configureInteractionsEndpoint } from '../interactions/delivery';
import { readCurrentApplication } from './current-application';

/** The flags an application may change itself: the limited privileged intents. */
export const EDITABLE_APPLICATION_FLAGS =
  APPLICATION_FLAGS.GATEWAY_PRESENCE_LIMITED |
  APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED |
  APPLICATION_FLAGS.GATEWAY_MESSAGE_CONTENT_LIMITED;

type InstallParams = { scopes: string[]; permissions: string };

/** A modify request, validated by the route. */
export interface ModifyApplicationInput {
  description?: string | null;
  tags?: string[] | null;
  custom_install_url?: string | null;
  role_connections_verification_url?: string | null;
  install_params?: InstallParams | null;
  integration_types_config?: Record<string, { oauth2_install_params?: InstallParams | null } | null> | null;
  interactions_endpoint_url?: string | null;
  flags?: number | null;
}

/**
 * Edits the bot's own application and answers it as `GET /applications/@me` does; another
 * application's id is 403 50001, an unknown one 404 10002.
 * @example await modifyApplication(ctx, bot, bot.application.id, { description: 'Rolls dice' }, fetch);
 */
export async function modifyApplication(
  ctx: PlatformContext,
  principal: BotPrincipal,
  applicationId: string,
  input: ModifyApplicationInput,
  send: FetchLike,
) {
  if (applicationId !== principal.application.id) {
    if (!(await ctx.db.getKey('applications', applicationId))) throw ApiError.of('UNKNOWN_APPLICATION');
    throw ApiError.of('MISSING_ACCESS');
  }
  if (input.flags != null && (input.flags & ~EDITABLE_APPLICATION_FLAGS) !== 0)
    throw ApiError.invalidForm({ flags: 'Only the limited intent flags can be changed.' });
  // Validated (a signed PING) before anything is stored; a refusal leaves the application as it was.
  if (input.interactions_endpoint_url !== undefined)
    await configureInteractionsEndpoint(ctx, applicationId, input.interactions_endpoint_url, send);
  const app = await write(ctx, ['applications'], async (tx) => {
    const current = await tx.store('applications').get(applicationId);
    if (!current) throw ApiError.of('UNKNOWN_APPLICATION');
    const next: ApplicationRecord = { ...current };
    if (input.description !== undefined) next.description = input.description ?? '';
    if (input.tags !== undefined) next.tags = input.tags ?? [];
    if (input.custom_install_url !== undefined) next.custom_install_url = input.custom_install_url;
    if (input.role_connections_verification_url !== undefined)
      next.role_connections_verification_url = input.role_connections_verification_url;
    if (input.install_params !== undefined) next.install_params = input.install_params;
    if (input.integration_types_config != null) {
      const config = { ...current.integration_types_config };
      for (const [type, value] of Object.entries(input.integration_types_config)) {
        const key = type as '0' | '1';
        if (value?.oauth2_install_params) config[key] = { oauth2_install_params: value.oauth2_install_params };
        else config[key] = {};
      }
      next.integration_types_config = config;
    }
    if (input.flags != null) {
      const kept = BigInt(current.flags) & ~BigInt(EDITABLE_APPLICATION_FLAGS);
      next.flags = (kept | BigInt(input.flags)).toString();
    }
    await tx.store('applications').put(next);
    return next;
  });
  return readCurrentApplication(ctx, { ...principal, application: app });
}
