/**
 * The spec's dated rules. Each is checked against the platform clock (`clock.ts`), never
 * against the machine's time, so the sandbox can move to either side of every date.
 */

const day = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);

/** Every date the spec attaches a rule to, as epoch milliseconds (00:00 UTC that day). */
export const RULE_DATES = {
  /** Voice gateway versions below 4 and the old encryption modes were discontinued. */
  VOICE_LEGACY_DISCONTINUED: day('2024-11-18'),
  /** Default upload limit for webhooks and interaction responses is 10 MiB (was 25 MiB). */
  UPLOAD_LIMIT_10_MIB: day('2025-01-16'),
  /** `POST /guilds` is unavailable to apps. */
  CREATE_GUILD_REMOVED: day('2025-07-15'),
  /** Request Guild Members for all members is rate limited on all servers. */
  REQUEST_ALL_MEMBERS_LIMITED: day('2025-10-01'),
  /** Pinning needs PIN_MESSAGES; slowmode bypass needs BYPASS_SLOWMODE; expressions and events need their own bits. */
  PERMISSION_SPLIT: day('2026-02-23'),
  /** Only end-to-end encrypted calls are supported. */
  E2EE_CALLS_ONLY: day('2026-03-01'),
  /** Legacy game-studio publisher connections are no longer returned. */
  STUDIO_CONNECTIONS_HIDDEN: day('2026-07-10'),
  /** Existing game-network publisher connections are no longer returned. */
  NETWORK_CONNECTIONS_HIDDEN: day('2026-09-22'),
  /** `GET /guilds/{id}/channels` omits channels the bot cannot view. */
  CHANNEL_LIST_OMITS_HIDDEN: day('2026-11-16'),
} as const;

/**
 * True when the rule dated `date` is in force at `now`.
 * @example inForce(RULE_DATES.PERMISSION_SPLIT, clock.now())
 */
export function inForce(date: number, now: number): boolean {
  return now >= date;
}
