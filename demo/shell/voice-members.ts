/**
 * `<demo-voice-members channel-id>`: who is in a guild voice channel, from the voice states the
 * client's gateway session receives (GUILD_CREATE's `voice_states`, then VOICE_STATE_UPDATE).
 * Compact under the channel in the left column; with `detailed`, a list with a heading in the
 * channel's view. Small on purpose: speaking rings and voice controls build on it.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { DemoClient } from './demo-client';
import { memberName } from './guild-model';
import { icon } from './icons';
import { StateController } from './state-controller';
import { avatarColour, initials, sharedStyles } from './styles';

/** The members of one voice channel. */
export class DemoVoiceMembers extends LitElement {
  static override properties = {
    client: { attribute: false },
    channelId: { type: String, attribute: 'channel-id' },
    detailed: { type: Boolean },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: block; }
    ul { display: grid; gap: 0.1rem; }
    li { display: flex; align-items: center; gap: 0.45rem; padding: 0.15rem 0.5rem 0.15rem 2rem; font-size: 0.85rem; color: var(--side-muted); }
    li .name { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    :host([detailed]) li { padding: 0.3rem 0; font-size: 0.95rem; color: var(--ink); }
    :host([detailed]) h3 { margin-bottom: 0.35rem; }
    .state { color: var(--ink-muted); }
  `,
  ];

  declare client: DemoClient | null;
  declare channelId: string;
  declare detailed: boolean;
  readonly #state = new StateController(this, () => this.client?.state);

  constructor() {
    super();
    this.client = null;
    this.channelId = '';
    this.detailed = false;
  }

  /** The ids of the users in the channel, by name. */
  members(): { id: string; name: string; muted: boolean }[] {
    const state = this.client?.state;
    if (!state) return [];
    const guild = state.guilds.get(this.client!.world.guild.id);
    return state.voiceStates
      .in(this.channelId)
      .map((v) => ({
        id: v.user_id,
        name: memberName(guild?.members.get(v.user_id), state.users.get(v.user_id)),
        muted: v.self_mute,
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  override render() {
    const members = this.members();
    if (!this.detailed && members.length === 0) return nothing;
    const list = html`<ul aria-label=${this.detailed ? 'In the voice channel' : `In voice, ${members.length}`}>
      ${members.map(
        (m) => html`<li data-user-id=${m.id}>
          <span class="avatar ${this.detailed ? 'medium' : 'small'}" style="background:${avatarColour(m.id)}" aria-hidden="true">${initials(m.name)}</span>
          <span class="name">${m.name}</span>
          ${m.muted ? html`<span class="state" title="Muted">${icon('mic')}<span class="visually-hidden">muted</span></span>` : nothing}
        </li>`,
      )}
    </ul>`;
    if (!this.detailed) return list;
    return html`<section class="card" aria-labelledby="in-voice">
      <h3 id="in-voice">In the voice channel — ${members.length}</h3>
      ${members.length ? list : html`<p class="muted">Nobody is in this voice channel.</p>`}
    </section>`;
  }
}

customElements.define('demo-voice-members', DemoVoiceMembers);
