/**
 * The application as its own bot reads it: `GET /applications/@me`, `GET /applications/{id}`
 * and `GET /oauth2/applications/@me` (the first call of a bot library's login). The public docs
 * give all three to a bot token for its own application; another application's id is refused
 * (403 50001) and an unknown one is 404 10002.
 */
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { BotPrincipal } from '../oauth2/auth';
import { interactionsEndpointOf } from '../interactions/delivery';
import { ensureEventWebhooks } from '../webhooks/config';
import { keyRange } from '../../store/port';
import { serializePrivateApplication } from './applications';

/**
 * The bot's own application, with its owner, bot, signing key and counts.
 * @example const app = await readCurrentApplication(ctx, botOf(c));
 */
export async function readCurrentApplication(ctx: PlatformContext, principal: BotPrincipal) {
  const app = principal.application;
  // The key pair is the application's identity, made the first time anything needs it.
  const { verify_key } = await ensureEventWebhooks(ctx, app.id);
  const tx = ctx.db.read(['users', 'members', 'tokens']);
  const [owner, memberships, tokens] = await Promise.all([
    app.owner_id ? tx.store('users').get(app.owner_id) : undefined,
    tx.store('members').index('by_user').getAll(principal.user.id),
    tx
      .store('tokens')
      .index('by_application_user')
      .getAll(keyRange.bound([app.id], [app.id, []])),
  ]);
  return serializePrivateApplication(app, {
    bot: principal.user,
    owner: owner ?? null,
    verifyKey: verify_key,
    interactionsEndpointUrl: await interactionsEndpointOf(ctx, app.id),
    guildCount: memberships.length,
    authorizationCount: new Set(tokens.map((t) => t.user_id)).size,
  });
}

/**
 * `GET /applications/{application.id}`: the bot's own application as {@link readCurrentApplication}
 * answers it; another application's is 403 50001, an unknown id 404 10002.
 */
export async function readApplication(ctx: PlatformContext, principal: BotPrincipal, applicationId: string) {
  if (applicationId !== principal.application.id) {
    if (!(await ctx.db.getKey('applications', applicationId))) throw ApiError.of('UNKNOWN_APPLICATION');
    throw ApiError.of('MISSING_ACCESS');
  }
  return readCurrentApplication(ctx, principal);
}
