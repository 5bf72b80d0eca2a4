/**
 * OAuth2 scopes: the ones the spec names, the ones routes need, and the expansion of the
 * SDK's umbrella scopes. `sdk.social_layer_presence` and `sdk.social_layer` expand to every
 * scope their integration needs (spec, Authorization argument record, Scopes rule 2); the
 * exact lists are this sandbox's choice, documented in the README.
 */

/** Scopes a token may carry. */
export const SCOPES = [
  'openid',
  'identify',
  'email',
  'guilds',
  'guilds.members.read',
  'guilds.join',
  'gdm.join',
  'connections',
  'identify.premium',
  'relationships.read',
  'relationships.write',
  'activities.read',
  'activities.write',
  'activities.invites.write',
  'presences.read',
  'lobbies.write',
  'dm_channels.read',
  'dm_channels.messages.read',
  'dm_channels.messages.write',
  'messages.read',
  'messages.write',
  'rpc',
  'rpc.activities.write',
  'rpc.voice.read',
  'bot',
  'applications.commands',
  'application.commands',
  'applications.entitlements',
  'applications.commands.permissions.update',
  'role_connections.write',
  'sdk.social_layer',
  'sdk.social_layer_presence',
] as const;

/** A scope name. */
export type Scope = (typeof SCOPES)[number];

/** What the SDK's presence scope stands for: account, friends and rich presence. */
const PRESENCE_EXPANSION: readonly Scope[] = [
  'identify',
  'relationships.read',
  'relationships.write',
  'activities.write',
  'presences.read',
];

/** What the SDK's communication scope adds: lobbies, their chat and direct messages. */
const SOCIAL_EXPANSION: readonly Scope[] = [
  ...PRESENCE_EXPANSION,
  'lobbies.write',
  'dm_channels.read',
  'dm_channels.messages.read',
  'dm_channels.messages.write',
  'guilds',
];

/** The scopes each umbrella scope expands to. */
export const SCOPE_EXPANSIONS: Readonly<Partial<Record<Scope, readonly Scope[]>>> = {
  'sdk.social_layer_presence': PRESENCE_EXPANSION,
  'sdk.social_layer': [...SOCIAL_EXPANSION, 'sdk.social_layer_presence'],
};

/** True when `name` is a scope the platform knows. */
export function isScope(name: string): name is Scope {
  return (SCOPES as readonly string[]).includes(name);
}

/**
 * Splits a space-separated scope string. Returns the scopes and the unknown names apart, so
 * a caller can refuse the request naming them.
 * @example parseScopes('openid sdk.social_layer') // { scopes: ['openid', 'sdk.social_layer'], unknown: [] }
 */
export function parseScopes(value: string): { scopes: Scope[]; unknown: string[] } {
  const scopes: Scope[] = [];
  const unknown: string[] = [];
  for (const name of value.split(/\s+/).filter(Boolean)) {
    if (isScope(name)) {
      if (!scopes.includes(name)) scopes.push(name);
    } else if (!unknown.includes(name)) unknown.push(name);
  }
  return { scopes, unknown };
}

/**
 * The granted scopes with every umbrella scope expanded: what a route checks against.
 * @example effectiveScopes(['openid', 'sdk.social_layer']).has('lobbies.write') // true
 */
export function effectiveScopes(granted: readonly string[]): Set<string> {
  const all = new Set<string>(granted);
  for (const name of granted) for (const s of SCOPE_EXPANSIONS[name as Scope] ?? []) all.add(s);
  return all;
}
