/**
 * What the consent step knows about scopes: a human-readable line per scope for the dialog,
 * which scopes an application may be granted at all, and what a grant lets it do now (spec,
 * Authentication rules 1-2 and the User.premium_type field rule).
 */
import { APPLICATION_FLAGS, type ApplicationRecord } from '../../store/records/core';
import { effectiveScopes, type Scope } from './scopes';

/** What granting each scope lets the application do, as the consent dialog lists it. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  openid: 'Confirm your identity to the application (OpenID Connect)',
  identify: 'Access your username, avatar and banner',
  email: 'Access your email address',
  guilds: 'Know which servers you are in',
  'guilds.members.read': 'Read your member information in your servers (nickname, roles)',
  'guilds.join': 'Join servers for you (the application\u2019s bot adds you)',
  'gdm.join': 'Join group DMs for you (the application\u2019s bot adds you)',
  connections: 'Access your third-party connections',
  'identify.premium': 'Know your premium subscription tier',
  'relationships.read': 'Access your friends list',
  'relationships.write': 'Send and accept friend requests for you',
  'activities.read': 'Read your activity feed',
  'activities.write': 'Update your activity (rich presence)',
  'activities.invites.write': 'Invite people to activities you run',
  'presences.read': "See your friends' online status and what they are playing",
  'lobbies.write': 'Create and join lobbies, and chat in them, as you',
  'dm_channels.read': 'See your direct message channels',
  'dm_channels.messages.read': 'Read your direct messages',
  'dm_channels.messages.write': 'Send direct messages as you',
  'messages.read': 'Read the messages of the server channels you can see',
  'messages.write': 'Send, edit, delete and pin messages in server channels as you',
  rpc: 'Control the platform client on this device',
  'rpc.activities.write': 'Update your activity through the platform client',
  'rpc.voice.read': 'Read your voice settings and listen for voice events',
  bot: 'Add a bot to a server',
  'applications.commands': 'Use the application\u2019s commands',
  'application.commands': 'Use the application\u2019s commands',
  'applications.entitlements': 'Read what you have bought from the application',
  'applications.commands.permissions.update':
    'Update the permissions of the application\u2019s commands in servers you manage',
  'role_connections.write': 'Update your role connection and metadata for the application',
  'sdk.social_layer': 'Use social features in the game: friends, presence, lobbies, voice and direct messages',
  'sdk.social_layer_presence': 'Show your friends and your rich presence in the game',
};

/**
 * The consent dialog's line for `scope` (the scope's own name when the platform does not know it).
 * @example describeScope('identify') // 'Access your username, avatar and banner'
 */
export function describeScope(scope: string): string {
  return (SCOPE_DESCRIPTIONS as Readonly<Record<string, string>>)[scope] ?? scope;
}

/**
 * Why `app` may not be granted `scope` through the consent step, or null when it may.
 * `identify.premium` is available only to approved partners (spec: User.premium_type);
 * `relationships.read` is available to an activity once its application accepted the SDK
 * terms (Authentication rule 2); `bot` installs a bot into a server, which takes the server
 * picker this sandbox does not have.
 */
export function scopeRefusal(app: ApplicationRecord, scope: string): string | null {
  if (scope === 'identify.premium' && !app.approvals.identify_premium) {
    return 'Scope identify.premium is available only to approved partners.';
  }
  if (scope === 'relationships.read' && !relationshipsReadAvailable(app)) {
    return 'Scope relationships.read is available to activities after the application accepts the SDK terms.';
  }
  if (scope === 'bot') return 'Scope bot adds a bot to a server, which this authorization does not do.';
  return null;
}

/** Authentication rule 2: an activity reads relationships only once its application accepted the SDK terms. */
export function relationshipsReadAvailable(app: ApplicationRecord): boolean {
  const isActivity = (BigInt(app.flags) & BigInt(APPLICATION_FLAGS.EMBEDDED)) !== 0n;
  return !isActivity || app.approvals.sdk_terms_accepted;
}

/**
 * What a token of `app` with the `granted` scopes may do now: the umbrella scopes expanded
 * ({@link effectiveScopes}), less what the application may not have at this moment. The SDK's
 * umbrella scopes stay grantable to an activity that has not accepted the SDK terms (they
 * carry lobbies, presence and messages too), but until it accepts them they do not stand for
 * `relationships.read`, and neither does `relationships.read` granted before. Checked on every
 * request, so accepting the terms makes the scope available to tokens already issued.
 * @example scopesFor(activity, ['openid', 'sdk.social_layer']).has('relationships.read') // false until the terms are accepted
 */
export function scopesFor(app: ApplicationRecord, granted: readonly string[]): Set<string> {
  const scopes = effectiveScopes(granted);
  if (!relationshipsReadAvailable(app)) scopes.delete('relationships.read');
  return scopes;
}
