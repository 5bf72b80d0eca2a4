/**
 * Which listeners of the activity SDK a dispatch is for. One SUBSCRIBE goes out per event and
 * arguments (its key); a dispatch reaches the listeners whose arguments name the guild, channel
 * or lobby the dispatch is about, so a VOICE_STATE_UPDATE listener of channel A never hears
 * channel B. (The platform's public SDK keys its listeners by event name alone.)
 */

/** The SUBSCRIBE arguments that choose a guild, channel or lobby. */
const SCOPE_NAMES = { guild_id: true, channel_id: true, lobby_id: true } as const;

/** A listener and the SUBSCRIBE it came with. */
export interface Subscription {
  event: string;
  args: Record<string, unknown>;
  listener: (data: never) => void;
  /** {@link subscriptionKey} of event and args. */
  key: string;
}

/** An event and its SUBSCRIBE arguments, as one key: one SUBSCRIBE per key. */
export function subscriptionKey(event: string, args: unknown): string {
  const named = Object.entries((args ?? {}) as Record<string, unknown>).filter(
    ([, value]) => value !== null && value !== undefined,
  );
  return `${event}\n${JSON.stringify(Object.fromEntries(named.sort(([a], [b]) => a.localeCompare(b))))}`;
}

/** What a dispatch says it is about: its guild, channel or lobby (`GUILD_STATUS` names its guild as `guild.id`). */
function dispatchScope(data: unknown): Record<string, unknown> {
  const d = (typeof data === 'object' && data !== null ? data : {}) as Record<string, any>;
  const scope: Record<string, unknown> = {
    guild_id: d.guild_id ?? d.guild?.id,
    channel_id: d.channel_id,
    lobby_id: d.lobby_id,
  };
  return Object.fromEntries(Object.entries(scope).filter(([, value]) => value !== undefined && value !== null));
}

/**
 * Whether a dispatch is for the subscription made with `args`: a listener of channel A hears
 * nothing of channel B. A dispatch that names no guild, channel or lobby reaches every listener
 * of its event, since nothing tells them apart.
 */
export function dispatchMatches(args: Record<string, unknown>, data: unknown): boolean {
  const scope = dispatchScope(data);
  if (Object.keys(scope).length === 0) return true;
  return Object.entries(args).every(
    ([name, value]) => value === null || value === undefined || !(name in SCOPE_NAMES) || scope[name] === value,
  );
}
