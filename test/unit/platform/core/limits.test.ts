// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { RULE_DATES } from '../../../../src/platform/core/dates';
import * as limits from '../../../../src/platform/core/limits';

const MiB = 1024 * 1024;

/** Every number of the spec's Limits section, by the constant that holds it (ARCHITECTURE rule 7). */
const SPEC_LIMITS: [name: keyof typeof limits, value: number, row: string][] = [
  [
    'REQUEST_ALL_MEMBERS_WINDOW_MS',
    30_000,
    'Request Guild Members for all members: 1 per guild per bot per 30 seconds',
  ],
  ['LOBBY_MESSAGES_MAX', 200, 'Lobby messages fetch: up to 200 most recent'],
  ['LOBBY_MESSAGES_HISTORY_HOURS', 72, 'GetLobbyMessagesWithLimit: up to 72 hours'],
  ['LOBBY_MEMBERS_BULK_MAX', 25, 'Lobby members bulk: 25 per request'],
  ['VOICE_CHANNEL_STATUS_MAX', 500, 'Voice channel status: 500 characters'],
  ['EMBED_FIELDS_MAX', 25, 'Embed fields: 25 per embed'],
  ['GUILD_TAG_MIN', 1, 'Guild tag: 1 to 4 characters'],
  ['GUILD_TAG_MAX', 4, 'Guild tag: 1 to 4 characters'],
  ['UPLOAD_LIMIT_DEFAULT_BYTES', 10 * MiB, 'File upload default: 10 MiB'],
  ['UPLOAD_LIMIT_LEGACY_BYTES', 25 * MiB, 'File upload default: was 25 MiB'],
  ['FILE_UPLOAD_COUNT_MIN', 0, 'File Upload component: file counts between 0 and 10'],
  ['FILE_UPLOAD_COUNT_MAX', 10, 'File Upload component: file counts between 0 and 10'],
  ['COMPONENTS_V2_MAX', 40, 'Components with IS_COMPONENTS_V2: 40 total'],
  ['LEGACY_ACTION_ROWS_MAX', 5, 'Legacy messages: up to 5 action rows'],
  ['CONTEXT_MENU_COMMANDS_PER_TYPE_MAX', 15, 'Context menu commands: 15 per type'],
  ['ENTRY_POINT_COMMANDS_MAX', 1, 'Entry point command: one globally scoped per app'],
  ['APPLICATION_EMOJI_MAX', 2000, 'Application emoji: up to 2000 per app'],
  ['USER_INSTALL_FOLLOWUPS_MAX', 5, 'Follow-ups for user-installed apps: 5 per interaction'],
  ['LOBBY_CHANNEL_INVITE_TTL_MS', 3_600_000, 'Lobby channel invite: valid one hour'],
  ['SDK_HTTP_TIMEOUT_DEFAULT_MS', 30_000, 'SDK HTTP request timeout: default 30000 ms'],
  ['PRIVILEGED_INTENTS_APPROVAL_THRESHOLD', 10_000, 'Privileged intents: application required from 10,000 users'],
  ['PRIVILEGED_INTENTS_REAPPLICATIONS_PER_YEAR', 1, 'Privileged intents: reapplication once per year'],
];

/** The dates of the Limits section (checked against the clock, so they live in RULE_DATES). */
const SPEC_LIMIT_DATES: [name: keyof typeof RULE_DATES, iso: string][] = [
  ['REQUEST_ALL_MEMBERS_LIMITED', '2025-10-01'],
  ['UPLOAD_LIMIT_10_MIB', '2025-01-16'],
  ['E2EE_CALLS_ONLY', '2026-03-01'],
];

describe('limits (spec: Limits section, one named constant each)', () => {
  it.each(SPEC_LIMITS)('%s = %i (%s)', (name, value) => {
    expect(limits[name]).toBe(value);
  });

  it.each(SPEC_LIMIT_DATES)('%s is dated %s', (name, iso) => {
    expect(new Date(RULE_DATES[name]).toISOString()).toBe(`${iso}T00:00:00.000Z`);
  });

  it('the lobby messages default page fits the maximum', () => {
    expect(limits.LOBBY_MESSAGES_DEFAULT).toBeGreaterThan(0);
    expect(limits.LOBBY_MESSAGES_DEFAULT).toBeLessThanOrEqual(limits.LOBBY_MESSAGES_MAX);
  });
});
