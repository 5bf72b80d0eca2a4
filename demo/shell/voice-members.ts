/**
 * `<demo-voice-members channel-id>`: who is in a voice call, a guild voice channel's or a
 * lobby's (its id is the call's channel), as the platform's client shows them: each with a
 * speaking ring and the icons of their self mute and self deafen. Who is in it comes from the
 * voice states the client's gateway session receives (and, while the user is in the call, from
 * the call itself, which knows as soon as someone connects); mute and deafen from the voice
 * states; speaking and levels from the `Call` of the game SDK through `VoiceCallController`,
 * so that a ring lights when the participant's measured level says they speak, not when they
 * join. Only the user's own call has rings, as in the platform's client.
 *
 * Laid out as a line per member (`list`, under the channel in the left column), as tiles with a
 * level meter (`tiles`, a voice channel's panel), or side by side (`row`, a lobby's call bar).
 */
import { LitElement, css, html, nothing } from 'lit';
import { VoiceCallController, type VoiceCallSnapshot } from '../../src/components/voice-call-controller';
import type { DemoClient } from './demo-client';
import { memberName } from './guild-model';
import { icon } from './icons';
import { StateController } from './state-controller';
import { avatarColour, initials, sharedStyles } from './styles';
import { displayName } from './world';

/** One member of a call as the list shows them. */
export interface CallMember {
  id: string;
  name: string;
  muted: boolean;
  deafened: boolean;
  speaking: boolean;
  /** What arrives from them now in dBFS (the user's own: their microphone); -Infinity when silent or unknown. */
  level: number;
}

/** The quietest level the meter shows, in dBFS: the voice activity threshold's default. */
const METER_FLOOR_DB = -60;

/**
 * Who is in the call of `channelId`, by name: everyone the voice states put there and, in the
 * user's own call, everyone it has. Rings, levels and the user's own mute and deafen come from
 * the call (`snapshot`); the others' mute and deafen from their voice states.
 */
export function callMembers(client: DemoClient, channelId: string, snapshot: VoiceCallSnapshot): CallMember[] {
  const state = client.state;
  const guild = state.guilds.get(client.world.guild.id);
  const inCall = new Map(snapshot.participants.map((p) => [p.userId, p]));
  const ids = new Set([...state.voiceStates.in(channelId).map((v) => v.user_id), ...inCall.keys()]);
  return [...ids]
    .map((id) => {
      const voice = state.voiceStates.of(id, channelId);
      const live = inCall.get(id);
      const self = id === client.user.id && live;
      const member = guild?.members.get(id);
      const user = state.users.get(id);
      return {
        id,
        name: member ? memberName(member, user) : user ? displayName(user) : 'Someone',
        muted: self ? live.selfMute : (voice?.self_mute ?? live?.selfMute ?? false),
        deafened: self ? live.selfDeaf : (voice?.self_deaf ?? live?.selfDeaf ?? false),
        speaking: live?.speaking ?? false,
        level: live?.level ?? Number.NEGATIVE_INFINITY,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The members of one voice call. */
export class DemoVoiceMembers extends LitElement {
  static override properties = {
    client: { attribute: false },
    channelId: { type: String, attribute: 'channel-id' },
    layout: { type: String, reflect: true },
    label: { type: String },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: block; }
    ul { display: grid; gap: 0.1rem; }
    li { display: flex; align-items: center; gap: 0.45rem; padding: 0.15rem 0.5rem 0.15rem 2rem; font-size: 0.85rem; color: var(--side-muted); }
    li[data-speaking] { color: var(--side-ink); }
    .name { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .state { display: inline-flex; gap: 0.15rem; color: var(--danger); }
    /* The speaking ring: the platform's client rings the avatar in green while someone speaks. */
    .avatar { transition: box-shadow 80ms linear; }
    li[data-speaking] .avatar { box-shadow: 0 0 0 2px var(--ring-gap, var(--side)), 0 0 0 4px var(--online); }
    :host([layout='tiles']) ul { grid-template-columns: repeat(auto-fill, minmax(7.5rem, 1fr)); gap: 0.6rem; }
    :host([layout='tiles']) li {
      flex-direction: column; gap: 0.35rem; padding: 0.75rem 0.5rem 0.6rem; font-size: 0.9rem; color: var(--ink);
      background: var(--paper-alt); border-radius: 8px; text-align: center; --ring-gap: var(--paper-alt);
    }
    :host([layout='tiles']) .avatar { width: 3.5rem; height: 3.5rem; font-size: 1.1rem; }
    :host([layout='tiles']) li[data-speaking] .avatar { box-shadow: 0 0 0 3px var(--ring-gap), 0 0 0 6px var(--online); }
    :host([layout='tiles']) .line { display: flex; align-items: center; justify-content: center; gap: 0.3rem; width: 100%; min-width: 0; }
    :host([layout='tiles']) .name { flex: 0 1 auto; font-weight: 600; }
    :host([layout='row']) ul { display: flex; flex-wrap: wrap; gap: 0.3rem 0.9rem; }
    :host([layout='row']) li { padding: 0.1rem 0; font-size: 0.85rem; color: var(--ink); --ring-gap: var(--paper-alt); }
    :host([layout='row']) .name { flex: 0 1 auto; max-width: 9rem; }
    .meter { width: 100%; height: 4px; border-radius: 2px; background: var(--line); overflow: hidden; }
    .meter span { display: block; height: 100%; background: var(--online); transition: width 80ms linear; }
  `,
  ];

  declare client: DemoClient | null;
  declare channelId: string;
  declare layout: 'list' | 'tiles' | 'row';
  /** The list's accessible name (by default, how many are in the call). */
  declare label: string;
  readonly #state = new StateController(this, () => this.client?.state);
  readonly #voice = new StateController(this, () => this.client?.voice);
  readonly #call = new VoiceCallController(
    this,
    () => this.client?.voice.callIn(this.channelId) ?? null,
    () => this.client?.user.id ?? null,
  );

  constructor() {
    super();
    this.client = null;
    this.channelId = '';
    this.layout = 'list';
    this.label = '';
  }

  /** Who is in the call now. */
  members(): CallMember[] {
    return this.client ? callMembers(this.client, this.channelId, this.#call.snapshot) : [];
  }

  override render() {
    const members = this.members();
    if (members.length === 0) return nothing;
    return html`<ul aria-label=${this.label || `In voice, ${members.length}`}>
      ${members.map((m) => this.#member(m, this.#call.snapshot.status !== null))}
    </ul>`;
  }

  #member(m: CallMember, heard: boolean) {
    // Nobody hears a muted or deafened participant: their meter stays empty, whatever their microphone picks up.
    const level = Number.isFinite(m.level) && !m.muted && !m.deafened ? m.level : METER_FLOOR_DB;
    const fill = Math.max(0, Math.min(1, (level - METER_FLOOR_DB) / -METER_FLOOR_DB));
    const state = html`${m.muted ? html`<span class="state" title="Muted">${icon('mic-off')}</span>` : nothing}${
      m.deafened ? html`<span class="state" title="Deafened">${icon('headphones-off')}</span>` : nothing
    }<span class="visually-hidden">${m.speaking ? ', speaking' : ''}${m.muted ? ', muted' : ''}${m.deafened ? ', deafened' : ''}</span>`;
    return html`<li data-user-id=${m.id} ?data-speaking=${m.speaking} ?data-muted=${m.muted} ?data-deafened=${m.deafened} data-level=${Number.isFinite(m.level) ? m.level : ''}>
      <span class="avatar ${this.layout === 'list' ? 'small' : this.layout === 'row' ? 'medium' : ''}" style="background:${avatarColour(m.id)}" aria-hidden="true">${initials(m.name)}</span>
      ${
        this.layout === 'tiles'
          ? html`<span class="line"><span class="name">${m.name}</span>${state}</span>
            ${heard ? html`<span class="meter" aria-hidden="true"><span style="width:${Math.round(fill * 100)}%"></span></span>` : nothing}`
          : html`<span class="name">${m.name}</span>${state}`
      }
    </li>`;
  }
}

customElements.define('demo-voice-members', DemoVoiceMembers);
