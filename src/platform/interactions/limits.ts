/**
 * The upload limit of an interaction's responses after it was created: the invoking user's
 * premium tier and the guild's boosts over the dated interaction default (10 MiB from
 * 2025-01-16, 25 MiB before), read again when a response is sent so the date that applies is
 * the response's.
 */
import { uploadLimitFor } from '../messages/attachments';
import type { PlatformContext } from '../core/context';
import type { InteractionRecord } from '../../store/records/interactions';

/** The per-attachment limit, in bytes, of a response to `interaction` now. */
export async function attachmentSizeLimitOf(ctx: PlatformContext, interaction: InteractionRecord): Promise<number> {
  const user = await ctx.db.get('users', interaction.user_id);
  const guild = interaction.guild_id ? await ctx.db.get('guilds', interaction.guild_id) : undefined;
  return uploadLimitFor({
    context: 'interaction',
    now: ctx.clock.now(),
    premiumType: user?.premium_type,
    boostTier: guild?.premium_tier,
  });
}
