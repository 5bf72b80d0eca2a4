// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  DEFAULT_EVERYONE_PERMISSIONS,
  PERMISSIONS,
  computeBasePermissions,
  computeChannelPermissions,
  hasPermission,
  parsePermissions,
  serializePermissions,
  type PermissionContext,
  type PermissionOverwrite,
} from '../../../../src/platform/core/permissions';

const { VIEW_CHANNEL, SEND_MESSAGES, ADMINISTRATOR, MANAGE_MESSAGES, ATTACH_FILES, EMBED_LINKS, PIN_MESSAGES } =
  PERMISSIONS;

const GUILD = '100';
const OWNER = '1';
const USER = '2';
const ROLE_A = '201';
const ROLE_B = '202';
const OTHER_ROLE = '203';

function member(
  opts: { everyone?: bigint; roles?: Record<string, bigint>; memberRoleIds?: string[]; userId?: string } = {},
): PermissionContext {
  const roles = Object.entries(opts.roles ?? {}).map(([id, permissions]) => ({ id, permissions }));
  return {
    guildId: GUILD,
    ownerId: OWNER,
    userId: opts.userId ?? USER,
    roles: [{ id: GUILD, permissions: opts.everyone ?? VIEW_CHANNEL | SEND_MESSAGES }, ...roles],
    memberRoleIds: opts.memberRoleIds ?? [],
  };
}
const role = (id: string, allow: bigint, deny: bigint): PermissionOverwrite => ({ id, type: 0, allow, deny });
const user = (id: string, allow: bigint, deny: bigint): PermissionOverwrite => ({ id, type: 1, allow, deny });

describe('permission bits (spec: permission bits named)', () => {
  it.each([
    ['PIN_MESSAGES', 51],
    ['BYPASS_SLOWMODE', 52],
    ['CREATE_GUILD_EXPRESSIONS', 43],
    ['CREATE_EVENTS', 44],
    ['USE_EXTERNAL_APPS', 50],
    ['SET_VOICE_CHANNEL_STATUS', 48],
    ['ADMINISTRATOR', 3],
    ['VIEW_CHANNEL', 10],
    ['SEND_MESSAGES', 11],
    ['MANAGE_MESSAGES', 13],
  ] as const)('%s is 1 << %i', (name, position) => {
    expect(PERMISSIONS[name]).toBe(1n << BigInt(position));
  });

  it('no two permissions share a bit, and ALL_PERMISSIONS is their union', () => {
    const values = Object.values(PERMISSIONS);
    expect(new Set(values).size).toBe(values.length);
    for (const v of values) expect(v & (v - 1n)).toBe(0n);
    expect(ALL_PERMISSIONS).toBe(values.reduce((a, b) => a | b, 0n));
  });

  it('USE_EXTERNAL_APPS is enabled by default for @everyone', () => {
    expect(hasPermission(DEFAULT_EVERYONE_PERMISSIONS, PERMISSIONS.USE_EXTERNAL_APPS)).toBe(true);
    expect(hasPermission(DEFAULT_EVERYONE_PERMISSIONS, VIEW_CHANNEL | SEND_MESSAGES)).toBe(true);
    expect(hasPermission(DEFAULT_EVERYONE_PERMISSIONS, ADMINISTRATOR)).toBe(false);
  });
});

describe('permission computation', () => {
  it('the guild owner has every permission, even with nothing granted and a channel deny', () => {
    const ctx = member({ everyone: 0n, userId: OWNER });
    expect(computeBasePermissions(ctx)).toBe(ALL_PERMISSIONS);
    expect(computeChannelPermissions(ctx, [role(GUILD, 0n, VIEW_CHANNEL), user(OWNER, 0n, ALL_PERMISSIONS)])).toBe(
      ALL_PERMISSIONS,
    );
  });

  it('base permissions are @everyone or-ed with every role of the member (and only those)', () => {
    const ctx = member({
      everyone: VIEW_CHANNEL,
      roles: { [ROLE_A]: SEND_MESSAGES, [ROLE_B]: ATTACH_FILES, [OTHER_ROLE]: MANAGE_MESSAGES },
      memberRoleIds: [ROLE_A, ROLE_B],
    });
    expect(computeBasePermissions(ctx)).toBe(VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES);
  });

  it('ADMINISTRATOR from a role gives every permission and short-circuits channel denies', () => {
    const ctx = member({ everyone: 0n, roles: { [ROLE_A]: ADMINISTRATOR }, memberRoleIds: [ROLE_A] });
    expect(computeBasePermissions(ctx)).toBe(ALL_PERMISSIONS);
    const overwrites = [
      role(GUILD, 0n, ALL_PERMISSIONS),
      role(ROLE_A, 0n, VIEW_CHANNEL),
      user(USER, 0n, VIEW_CHANNEL | SEND_MESSAGES),
    ];
    expect(computeChannelPermissions(ctx, overwrites)).toBe(ALL_PERMISSIONS);
  });

  it('with no overwrites the channel permissions are the base permissions', () => {
    const ctx = member({ everyone: VIEW_CHANNEL | SEND_MESSAGES });
    expect(computeChannelPermissions(ctx, [])).toBe(VIEW_CHANNEL | SEND_MESSAGES);
  });

  it('the @everyone overwrite applies first: denies and allows bits of the base', () => {
    const ctx = member({ everyone: VIEW_CHANNEL | SEND_MESSAGES });
    expect(computeChannelPermissions(ctx, [role(GUILD, EMBED_LINKS, SEND_MESSAGES)])).toBe(VIEW_CHANNEL | EMBED_LINKS);
  });

  it('a role overwrite overrides the @everyone overwrite', () => {
    const ctx = member({ memberRoleIds: [ROLE_A], roles: { [ROLE_A]: 0n } });
    const perms = computeChannelPermissions(ctx, [role(GUILD, 0n, SEND_MESSAGES), role(ROLE_A, SEND_MESSAGES, 0n)]);
    expect(hasPermission(perms, SEND_MESSAGES)).toBe(true);
    const denied = computeChannelPermissions(ctx, [role(GUILD, ATTACH_FILES, 0n), role(ROLE_A, 0n, ATTACH_FILES)]);
    expect(hasPermission(denied, ATTACH_FILES)).toBe(false);
  });

  it('role overwrites are combined: among roles, allow wins over deny whatever the order', () => {
    const ctx = member({ memberRoleIds: [ROLE_A, ROLE_B], roles: { [ROLE_A]: 0n, [ROLE_B]: 0n } });
    for (const overwrites of [
      [role(ROLE_A, 0n, SEND_MESSAGES), role(ROLE_B, SEND_MESSAGES, 0n)],
      [role(ROLE_B, SEND_MESSAGES, 0n), role(ROLE_A, 0n, SEND_MESSAGES)],
    ]) {
      expect(hasPermission(computeChannelPermissions(ctx, overwrites), SEND_MESSAGES)).toBe(true);
    }
  });

  it('overwrites of roles the member does not have do not apply', () => {
    const ctx = member({ memberRoleIds: [ROLE_A], roles: { [ROLE_A]: 0n, [OTHER_ROLE]: 0n } });
    expect(hasPermission(computeChannelPermissions(ctx, [role(OTHER_ROLE, 0n, SEND_MESSAGES)]), SEND_MESSAGES)).toBe(
      true,
    );
    expect(hasPermission(computeChannelPermissions(ctx, [role(OTHER_ROLE, PIN_MESSAGES, 0n)]), PIN_MESSAGES)).toBe(
      false,
    );
  });

  it('the member overwrite applies last, over role overwrites', () => {
    const ctx = member({ memberRoleIds: [ROLE_A], roles: { [ROLE_A]: 0n } });
    const denied = computeChannelPermissions(ctx, [role(ROLE_A, SEND_MESSAGES, 0n), user(USER, 0n, SEND_MESSAGES)]);
    expect(hasPermission(denied, SEND_MESSAGES)).toBe(false);
    const allowed = computeChannelPermissions(ctx, [
      role(GUILD, 0n, SEND_MESSAGES),
      role(ROLE_A, 0n, SEND_MESSAGES),
      user(USER, SEND_MESSAGES, 0n),
    ]);
    expect(hasPermission(allowed, SEND_MESSAGES)).toBe(true);
  });

  it("another member's overwrite does not apply, nor a role overwrite whose id is the user's", () => {
    const ctx = member();
    expect(hasPermission(computeChannelPermissions(ctx, [user('999', 0n, SEND_MESSAGES)]), SEND_MESSAGES)).toBe(true);
    expect(hasPermission(computeChannelPermissions(ctx, [role(USER, 0n, SEND_MESSAGES)]), SEND_MESSAGES)).toBe(true);
  });

  it('without VIEW_CHANNEL the member has no permission in the channel at all (0n)', () => {
    const ctx = member({ everyone: VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES });
    expect(computeChannelPermissions(ctx, [role(GUILD, 0n, VIEW_CHANNEL)])).toBe(0n);
    expect(computeChannelPermissions(member({ everyone: SEND_MESSAGES }), [])).toBe(0n);
    expect(computeChannelPermissions(ctx, [role(GUILD, 0n, VIEW_CHANNEL), user(USER, VIEW_CHANNEL, 0n)])).toBe(
      VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES,
    );
  });
});

describe('permission bit sets on the wire (CONTRACT §2: decimal strings)', () => {
  it('parses decimal strings up to 2^64 - 1', () => {
    expect(parsePermissions('0')).toBe(0n);
    expect(parsePermissions('2048')).toBe(SEND_MESSAGES);
    expect(parsePermissions((1n << 51n).toString())).toBe(PIN_MESSAGES);
    expect(parsePermissions('18446744073709551615')).toBe((1n << 64n) - 1n);
  });

  it('rejects negatives, non-digits, numbers and values >= 2^64', () => {
    for (const bad of [
      '-1',
      '',
      ' 1',
      '1 ',
      '1.0',
      '0x10',
      '1e3',
      'abc',
      '18446744073709551616',
      '99999999999999999999',
      '123456789012345678901',
    ]) {
      expect(parsePermissions(bad), bad).toBeNull();
    }
    for (const bad of [8, 8n, null, undefined, {}]) expect(parsePermissions(bad)).toBeNull();
  });

  it('serializes to the decimal string that parses back', () => {
    const bits = PIN_MESSAGES | PERMISSIONS.BYPASS_SLOWMODE | VIEW_CHANNEL;
    expect(serializePermissions(bits)).toBe(bits.toString(10));
    expect(parsePermissions(serializePermissions(bits))).toBe(bits);
    expect(serializePermissions(0n)).toBe('0');
  });
});
