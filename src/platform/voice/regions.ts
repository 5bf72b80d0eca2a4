/**
 * Voice regions: `GET /voice/regions` and `GET /guilds/{guild.id}/regions`. The sandbox carries
 * voice itself, wherever its users are, so it offers one fixed list of the platform's public
 * region ids (its data, documented in docs/http-api.md), with `sandbox` as the optimal one: the
 * region every voice connection here really uses. A guild's list is the same for its members.
 */
import type { VoiceRegionResponse } from 'discord-api-spec';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { dbReader, loadGuildView, requireMember } from '../guilds/access';

/** The regions the sandbox offers, in the order it lists them. */
export const VOICE_REGIONS: readonly VoiceRegionResponse[] = [
  { id: 'sandbox', name: 'Sandbox', custom: false, deprecated: false, optimal: true },
  ...[
    ['us-east', 'US East'],
    ['us-west', 'US West'],
    ['us-central', 'US Central'],
    ['us-south', 'US South'],
    ['brazil', 'Brazil'],
    ['rotterdam', 'Rotterdam'],
    ['singapore', 'Singapore'],
    ['japan', 'Japan'],
    ['hongkong', 'Hong Kong'],
    ['india', 'India'],
    ['sydney', 'Sydney'],
    ['southafrica', 'South Africa'],
  ].map(([id, name]) => ({ id, name, custom: false, deprecated: false, optimal: false })),
];

/** `GET /voice/regions`. */
export function listVoiceRegions(): VoiceRegionResponse[] {
  return VOICE_REGIONS.map((region) => ({ ...region }));
}

/** `GET /guilds/{guild.id}/regions`: the same list, for a member of the guild (50001 otherwise). */
export async function listGuildVoiceRegions(ctx: PlatformContext, principal: Principal, guildId: string) {
  requireMember(await loadGuildView(dbReader(ctx.db), guildId, principal.user.id));
  return listVoiceRegions();
}
