/**
 * `<demo-members>`: the right column. The guild's members grouped by their highest role, each
 * with the presence the platform dispatched for them: their status (GUILD_CREATE's presences,
 * then PRESENCE_UPDATE: a green dot only while they are online, that is while one of their
 * gateway sessions is connected; amber when idle, red for do not disturb; none when offline)
 * and their rich presence ("Playing Tic-Tac-Toe", the activity's details and state).
 */
import { LitElement, css, html, nothing } from 'lit';
import type { PresenceActivity } from './client-state';
import type { DemoClient } from './demo-client';
import { memberGroups, memberName, roleColour } from './guild-model';
import { StateController } from './state-controller';
import { avatarColour, initials, sharedStyles } from './styles';

const VERBS: Record<number, string> = { 0: 'Playing', 1: 'Streaming', 2: 'Listening to', 3: 'Watching', 5: 'Competing in' };
/** How each status reads; a member with no presence is offline. */
const STATUS_TEXT: Record<string, string> = { online: 'online', idle: 'idle', dnd: 'do not disturb', offline: 'offline' };

/** "Playing Tic-Tac-Toe". */
export function activityTitle(activity: PresenceActivity): string {
  return `${VERBS[activity.type] ?? 'Playing'} ${activity.name}`;
}

/** The right column. */
export class DemoMembers extends LitElement {
  static override properties = { client: { attribute: false } };

  static override styles = [sharedStyles, css`
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
  `];

  declare client: DemoClient | null;
  readonly #state = new StateController(this, () => this.client?.state);

  constructor() {
    super();
    this.client = null;
  }

  override render() {
    const client = this.client;
    const guild = client?.state.guilds.get(client.world.guild.id);
    if (!client || !guild) return html`<p class="note muted" role="status">Waiting for the guild from the gateway…</p>`;
    return html`
      <h2 class="visually-hidden">Members of ${guild.name}</h2>
      ${memberGroups(guild).map((group) => html`
        <section aria-label=${`${group.title}, ${group.members.length}`}>
          <h3>${group.title} — ${group.members.length}</h3>
          <ul>${group.members.map((member) => {
            const name = memberName(member);
            const presence = client.state.presences.get(member.user.id);
            const status = presence?.status ?? 'offline';
            return html`<li data-user-id=${member.user.id} data-status=${status} class=${status === 'offline' ? 'offline' : ''}>
              <span class="avatar" style="background:${avatarColour(member.user.id)}" aria-hidden="true">${initials(name)}${status === 'offline' ? nothing : html`<span class="dot ${status}"></span>`}</span>
              <div>
                <div><span class="name" style=${roleColour(group.role) ? `color:${roleColour(group.role)}` : ''}>${name}</span>${member.user.bot ? html`<span class="bot">BOT</span>` : nothing}${member.user.id === client.user.id ? html` <span class="muted">(you)</span>` : nothing}<span class="visually-hidden">, ${STATUS_TEXT[status] ?? status}</span></div>
                ${(presence?.activities ?? []).map((a) => html`<div class="activity" data-application-id=${a.application_id ?? ''}>
                  <strong>${activityTitle(a)}</strong>${a.details ? html`<br />${a.details}` : nothing}${a.state ? html`<br />${a.state}${a.party?.size ? ` (${a.party.size[0]} of ${a.party.size[1]})` : ''}` : nothing}
                </div>`)}
              </div>
            </li>`;
          })}</ul>
        </section>`)}
      <p class="note muted">Presence shows what the gateway dispatched to ${client.user.global_name} (PRESENCE_UPDATE): a member is online while one of their sessions is connected (open another tab as them, or close it); start the Tic-Tac-Toe activity in the Game Room and it appears here, in every tab.</p>
    `;
  }
}

customElements.define('demo-members', DemoMembers);
