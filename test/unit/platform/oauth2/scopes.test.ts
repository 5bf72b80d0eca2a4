// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  SCOPES,
  SCOPE_EXPANSIONS,
  effectiveScopes,
  isScope,
  parseScopes,
} from '../../../../src/platform/oauth2/scopes';

describe('OAuth2 scopes (spec: Authentication rule 1, AuthorizationArgs scopes rules)', () => {
  it('knows every scope the spec names', () => {
    for (const name of [
      'openid',
      'sdk.social_layer',
      'sdk.social_layer_presence',
      'identify.premium',
      'relationships.read',
      'guilds',
      'application.commands',
    ]) {
      expect(isScope(name), name).toBe(true);
      expect(SCOPES).toContain(name);
    }
    expect(isScope('not.a.scope')).toBe(false);
  });

  it('sdk.social_layer_presence expands to the scopes of account, friends and rich presence', () => {
    const presence = effectiveScopes(['openid', 'sdk.social_layer_presence']);
    for (const s of ['openid', 'sdk.social_layer_presence', 'identify', 'relationships.read', 'activities.write'])
      expect(presence.has(s), s).toBe(true);
    expect(presence.has('lobbies.write')).toBe(false);
  });

  it('sdk.social_layer expands to lobbies and direct messages, and includes everything presence gives', () => {
    const social = effectiveScopes(['openid', 'sdk.social_layer']);
    for (const s of ['lobbies.write', 'dm_channels.messages.write', 'identify', 'sdk.social_layer_presence'])
      expect(social.has(s), s).toBe(true);
    for (const s of effectiveScopes(['sdk.social_layer_presence']))
      expect(social.has(s), `${s} from presence`).toBe(true);
    expect(social.size).toBeGreaterThan(effectiveScopes(['openid', 'sdk.social_layer_presence']).size);
  });

  it('expansions only name known scopes; scopes without an expansion stand for themselves', () => {
    for (const list of Object.values(SCOPE_EXPANSIONS)) for (const s of list ?? []) expect(isScope(s), s).toBe(true);
    expect([...effectiveScopes(['identify', 'guilds'])].sort()).toEqual(['guilds', 'identify']);
    expect(effectiveScopes([]).size).toBe(0);
  });

  it('parseScopes splits on any whitespace and returns unknown names separately', () => {
    expect(parseScopes('openid  sdk.social_layer\tguilds\nnope.scope')).toEqual({
      scopes: ['openid', 'sdk.social_layer', 'guilds'],
      unknown: ['nope.scope'],
    });
    expect(parseScopes('')).toEqual({ scopes: [], unknown: [] });
    expect(parseScopes('  ')).toEqual({ scopes: [], unknown: [] });
    expect(parseScopes('OPENID').unknown).toEqual(['OPENID']);
  });

  it('parseScopes dedupes known and unknown names, keeping first-seen order', () => {
    expect(parseScopes('guilds openid guilds bogus openid bogus')).toEqual({
      scopes: ['guilds', 'openid'],
      unknown: ['bogus'],
    });
  });
});
