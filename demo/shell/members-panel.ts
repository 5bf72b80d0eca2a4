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
import { lobbyName } from './nav-panel';
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
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: block; background: var(--paper-alt); overflow: auto; min-height: 0; border-left: 1px solid var(--line); }
    section { padding: 0.75rem 0.75rem 0.25rem; }
    h3 { padding: 0 0.25rem 0.35rem; }
    li { display: flex; gap: 0.6rem; padding: 0.35rem 0.25rem; align-items: flex-start; }
    .dot { position: absolute; right: -2px; bottom: -2px; width: 0.75rem; height: 0.75rem; border-radius: 50%; border: 2px solid var(--paper-alt); background: var(--ok); }
    .dot.idle { background: #b7791f; }
    .dot.dnd { background: var(--danger); }
    li.offline .avatar { opacity: 0.5; }
    .name { font-weight: 600; }
    .bot { font-size: 0.65rem; background: var(--accent); color: #fff; border-radius: 4px; padding: 0 0.3rem; margin-left: 0.3rem; vertical-align: middle; }
    .activity { font-size: 0.8rem; color: var(--ink-muted); }
    .activity strong { color: var(--ink); font-weight: 600; }
    p.note { padding: 0.75rem 1rem; font-size: 0.8rem; }
  `,
  ];

  declare client: DemoClient | null;
  /** The lobby whose members to show; empty for the guild's. */
  declare lobbyId: string;
  readonly #state = new StateController(this, () => this.client?.state);

  constructor() {
    super();
    this.client = null;
    this.lobbyId = '';
  }

  override render() {
    const client = this.client;
    const lobby = this.lobbyId ? client?.state.lobbies.get(this.lobbyId) : undefined;
    if (client && lobby)
      return this.#lobby(
        client,
        lobby.members.map((m) => m.id),
        lobbyName(lobby),
      );
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
      <p class="note muted">Presence shows what the gateway dispatched to ${client.user.global_name} (PRESENCE_UPDATE): a member is online while one of their sessions is connected (open another tab as them, or close it); start the Tic-Tac-Toe activity in the Game Room and it appears here, in every tab.</p>
    `;
  }

  #lobby(client: DemoClient, memberIds: string[], name: string) {
    const entries = memberIds
      .map((id): Entry => {
        const user: WireUser | undefined = client.state.users.get(id);
        // A member who just joined is named once the client has read them (resolveUser).
        return { id, name: user ? displayName(user) : 'Reading the name…', bot: !!user?.bot };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
    return html`
      <h2 class="visually-hidden">Members of ${name}</h2>
      <section aria-label=${`In this lobby, ${entries.length}`}>
        <h3>In this lobby — ${entries.length}</h3>
        <ul>${entries.map((e) => this.#entry(client, e))}</ul>
      </section>
      <p class="note muted">A lobby's members, as LOBBY_MEMBER_ADD and LOBBY_MEMBER_REMOVE tell ${client.user.global_name}'s session, with the presence the platform dispatches to lobby co-members. Join this lobby from another tab with its secret and watch the list change.</p>
    `;
  }

  #entry(client: DemoClient, { id, name, bot, colour }: Entry) {
    const presence: Presence | undefined = client.state.presences.get(id);
    const status = presence?.status ?? 'offline';
    return html`<li data-user-id=${id} data-status=${status} class=${status === 'offline' ? 'offline' : ''}>
      <span class="avatar" style="background:${avatarColour(id)}" aria-hidden="true">${initials(name)}${status === 'offline' ? nothing : html`<span class="dot ${status}"></span>`}</span>
      <div>
        <div><span class="name" style=${colour ? `color:${colour}` : ''}>${name}</span>${bot ? html`<span class="bot">BOT</span>` : nothing}${id === client.user.id ? html` <span class="muted">(you)</span>` : nothing}<span class="visually-hidden">, ${STATUS_TEXT[status] ?? status}</span></div>
        ${(presence?.activities ?? []).map(activityLines)}
      </div>
    </li>`;
  }
}

customElements.define('demo-members', DemoMembers);
