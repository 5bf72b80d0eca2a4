/**
 * Mentions of a message: `<@id>` / `<@!id>` users, `<@&id>` roles and `@everyone` / `@here` in
 * its text, kept as `allowed_mentions` allows (all kinds when it is absent). `@everyone` needs
 * MENTION_EVERYONE. A reply mentions the replied-to author unless `allowed_mentions` is given
 * without `replied_user: true`. The mentions are what the MESSAGE_CONTENT rule reads: an app
 * mentioned in a message sees its content.
 */
import type { AllowedMentions } from './schemas';
import type { MessageTx } from './access';
import type { StoredComponent } from '../../store/records/messages';
import type { RoleRecord } from '../../store/records/core';
import { COMPONENT_TYPES } from '../interactions/components';

/** What a text mentions, before `allowed_mentions`. */
export function parseMentions(text: string): { users: string[]; roles: string[]; everyone: boolean } {
  const users = [...text.matchAll(/<@!?(\d{1,20})>/g)].map((m) => m[1]);
  const roles = [...text.matchAll(/<@&(\d{1,20})>/g)].map((m) => m[1]);
  return { users: [...new Set(users)], roles: [...new Set(roles)], everyone: /@(everyone|here)\b/.test(text) };
}

/** The text of a message that mentions are read from: its content and its Text Displays. */
export function mentionText(content: string, components: readonly StoredComponent[]): string {
  const parts = [content];
  const visit = (list: readonly unknown[]) => {
    for (const c of list as Record<string, unknown>[]) {
      if (c.type === COMPONENT_TYPES.TEXT_DISPLAY) parts.push(String(c.content));
      if (Array.isArray(c.components)) visit(c.components);
    }
  };
  visit(components);
  return parts.join('\n');
}

/** A message's resolved mentions as stored. */
export interface ResolvedMentions {
  mention_ids: string[];
  mention_roles: string[];
  mention_everyone: boolean;
}

/**
 * The mentions a message keeps, read in the caller's transaction: users that exist, roles of
 * the guild (never @everyone's own id).
 */
export async function resolveMentions(
  tx: MessageTx,
  input: {
    text: string;
    allowed: AllowedMentions | null | undefined;
    guildId: string;
    roles: readonly RoleRecord[];
    canMentionEveryone: boolean;
    repliedUserId?: string;
  },
): Promise<ResolvedMentions> {
  const parsed = parseMentions(input.text);
  const allowed = input.allowed ?? undefined;
  const pick = (kind: 'users' | 'roles', found: string[], listed: string[] | undefined) => {
    if (!allowed || allowed.parse?.includes(kind)) return found;
    return listed ? found.filter((id) => listed.includes(id)) : [];
  };
  let userIds = pick('users', parsed.users, allowed?.users);
  if (input.repliedUserId && (!allowed || allowed.replied_user === true))
    userIds = [...new Set([...userIds, input.repliedUserId])];
  const existing = await Promise.all(userIds.map((id) => tx.store('users').get(id)));
  const guildRoles = new Set(input.roles.filter((r) => r.id !== input.guildId).map((r) => r.id));
  return {
    mention_ids: userIds.filter((_, i) => existing[i] !== undefined),
    mention_roles: pick('roles', parsed.roles, allowed?.roles).filter((id) => guildRoles.has(id)),
    mention_everyone:
      parsed.everyone && input.canMentionEveryone && (!allowed || allowed.parse?.includes('everyone') === true),
  };
}
