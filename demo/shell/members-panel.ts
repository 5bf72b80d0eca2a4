/**
 * `<demo-members>`: the right column. Beside a lobby, that lobby's members (as
 * LOBBY_MEMBER_ADD and LOBBY_MEMBER_REMOVE keep them); elsewhere the guild's members grouped by
 * their highest role. Each shows the presence the platform dispatched for them: their status
 * (GUILD_CREATE's presences, then PRESENCE_UPDATE: a green dot only while they are online, that
 * is while one of their gateway sessions is connected; amber when idle, red for do not disturb;
 * none when offline) and their rich presence (the status text its `status_display_type` picks,
 * then the activity's details and state).
 */
import { LitElement, css, html, nothing } from 'lit';
import { statusText } from '../../src/platform/presence/status-text';
import type { Presence, PresenceActivity, WireUser } from './client-state';
import type { DemoClient } from './demo-client';
import { memberGroups, memberName, roleColour } from './guild-model';
import { lobbyName } from './lobby-name';
import { StateController } from './state-controller';
import { avatarColour, initials, sharedStyles } from './styles';
import { displayName } from './world';

/** How each status reads; a member with no presence is offline. */
const STATUS_TEXT: Record<string, string> = {
  online: 'online',
  idle: 'idle',
  dnd: 'do not disturb',
  offline: 'offline',
};

/** One entry of the list. */
interface Entry {
  id: string;
  name: string;
  bot: boolean;
  colour?: string;
}

/** The activity's lines: its status text, then whichever of details and state that text does not already say. */
function activityLines(a: PresenceActivity) {
  const title = statusText(a);
  const party = a.party?.size ? ` (${a.party.size[0]} of ${a.party.size[1]})` : '';
  const details = a.details && a.status_display_type !== 2 ? html`<br />${a.details}` : nothing;
  const state = a.state && a.status_display_type !== 1 ? html`<br />${a.state}${party}` : nothing;
  return html`<div class="activity" data-application-id=${a.application_id ?? ''}><strong>${title}</strong>${details}${state}</div>`;
}

/** The right column. */
export class DemoMembers extends LitElement {
  static override properties = {
    client: { attribute: false },
    lobbyId: { type: String, attribute: 'lobby-id' },
    dmUserId: { type: String, attribute: 'dm-user-id' },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: block; background: var(--paper-alt); overflow: auto; min-height: 0; border-left: 1px solid var(--line); --dot-ring: var(--paper-alt); }
    section { padding: 1rem 0.5rem 0; }
    h3 { padding: 0 0.5rem 0.35rem; }
    li { display: flex; gap: 0.65rem; padding: 0.35rem 0.5rem; align-items: center; border-radius: 6px; }
    li:hover { background: var(--hover); }
    /* Offline reads muted, never faded: a faded avatar's initials lose their contrast and its colour would change with presence. */
    li.offline .name, li.offline .name.coloured { color: var(--ink-muted); font-weight: 500; }
    .who { min-width: 0; flex: 1; }
    .line { display: flex; align-items: baseline; gap: 0.3rem; min-width: 0; }
    .name { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .name.coloured { color: var(--role); }
    @media (prefers-color-scheme: dark) { .name.coloured { color: color-mix(in oklab, var(--role), white 45%); } }
    .you { font-size: 0.75rem; }
    .activity { font-size: 0.78rem; color: var(--ink-muted); line-height: 1.3; overflow-wrap: anywhere; }
    .activity strong { color: var(--ink); font-weight: 600; }
    p.note { padding: 0.75rem 1rem; font-size: 0.8rem; }
  `,
  ];

  declare client: DemoClient | null;
  /** The lobby whose members to show; empty for the guild's. */
  declare lobbyId: string;
  /** The other user of the direct messages shown; empty elsewhere. */
  declare dmUserId: string;
  readonly #state = new StateController(this, () => this.client?.state);

  constructor() {
    super();
    this.client = null;
    this.lobbyId = '';
    this.dmUserId = '';
  }

  override render() {
    const client = this.client;
    const lobby = this.lobbyId ? client?.state.lobbies.get(this.lobbyId) : undefined;
    if (client && lobby)
      return this.#lobby(
        client,
        lobby.members.map((m) => m.id),
        lobbyName(lobby, client.lobbySecret(lobby.id)),
      );
    if (client && this.dmUserId)
      return this.#lobby(client, [client.user.id, this.dmUserId], 'these direct messages', 'In this conversation');
    const guild = client?.state.guilds.get(client.world.guild.id);
    if (!client || !guild) return html`<p class="note muted" role="status">Waiting for the guild from the gateway…</p>`;
    return html`
      <h2 class="visually-hidden">Members of ${guild.name}</h2>
      ${memberGroups(guild).map(
        (group) => html`
        <section aria-label=${`${group.title}, ${group.members.length}`}>
          <h3>${group.title} — ${group.members.length}</h3>
          <ul>${group.members.map((m) => this.#entry(client, { id: m.user.id, name: memberName(m), bot: !!m.user.bot, colour: roleColour(group.role) }))}</ul>
        </section>`,
      )}
    `;
  }

  #lobby(client: DemoClient, memberIds: string[], name: string, title = 'In this lobby') {
    const entries = memberIds
      .map((id): Entry => {
        const user: WireUser | undefined = client.state.users.get(id);
        // A member who just joined is named once the client has read them (resolveUser).
        return { id, name: user ? displayName(user) : 'Reading the name…', bot: !!user?.bot };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
    return html`
      <h2 class="visually-hidden">Members of ${name}</h2>
      <section aria-label=${`${title}, ${entries.length}`}>
        <h3>${title} — ${entries.length}</h3>
        <ul>${entries.map((e) => this.#entry(client, e))}</ul>
      </section>
    `;
  }

  #entry(client: DemoClient, { id, name, bot, colour }: Entry) {
    const presence: Presence | undefined = client.state.presences.get(id);
    const status = presence?.status ?? 'offline';
    return html`<li data-user-id=${id} data-status=${status} class=${status === 'offline' ? 'offline' : ''}>
      <span class="avatar medium" style="background:${avatarColour(id)}" aria-hidden="true">${initials(name)}${status === 'offline' ? nothing : html`<span class="presence-dot ${status}"></span>`}</span>
      <div class="who">
        <div class="line"><span class="name ${colour ? 'coloured' : ''}" style=${colour ? `--role:${colour}` : ''}>${name}</span>${bot ? html`<span class="tag">BOT</span>` : nothing}${id === client.user.id ? html`<span class="you muted">(you)</span>` : nothing}<span class="visually-hidden">, ${STATUS_TEXT[status] ?? status}</span></div>
        ${(presence?.activities ?? []).map(activityLines)}
      </div>
    </li>`;
  }
}

customElements.define('demo-members', DemoMembers);
