/**
 * `<demo-voice-panel channel-id guild-id>`: a call as its view shows it, a guild voice
 * channel's (`guild-id`) or a lobby's (no `guild-id`: the lobby's id is the call's channel).
 * Who is in it with their speaking rings, mute and deafen; whether the user's own call is
 * connected and end-to-end encrypted; Join, and once in, Mute, Deafen and Leave, which act on
 * the call's audio. When the browser refused the microphone (or has none), it says so while the
 * user is in the call, listening only; when a call ended without being asked to, it says why.
 *
 * In a voice channel's view it is a card of tiles; with `bar`, the slim bar above a lobby's chat.
 */
import { LitElement, css, html, nothing } from 'lit';
import { CallStatus } from '../../src/sdk/call-status';
import { callStatusText } from './call-words';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { icon } from './icons';
import { StateController } from './state-controller';
import { sharedStyles } from './styles';
import './voice-members';
import './voice-toggles';

/** The panel of one call. */
export class DemoVoicePanel extends LitElement {
  static override properties = {
    client: { attribute: false },
    channelId: { type: String, attribute: 'channel-id' },
    guildId: { type: String, attribute: 'guild-id' },
    bar: { type: Boolean, reflect: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: block; min-width: 0; }
    .call { display: grid; gap: 0.75rem; }
    .who { display: grid; gap: 0.6rem; min-width: 0; }
    .head { display: flex; align-items: center; gap: 0.4rem 0.75rem; flex-wrap: wrap; min-width: 0; }
    .head h3 { margin-right: auto; }
    .status { display: inline-flex; align-items: center; gap: 0.3rem; font-size: 0.8rem; font-weight: 600; color: var(--ink-muted); }
    .status[data-status='connected'] { color: var(--ok); }
    .e2ee { display: inline-flex; align-items: center; gap: 0.25rem; font-size: 0.8rem; color: var(--ink-muted); }
    .controls { display: flex; gap: 0.5rem; flex-wrap: wrap; align-items: center; }
    .controls button { display: inline-flex; align-items: center; gap: 0.4rem; }
    .notice { padding: 0.55rem 0.75rem; border-radius: 6px; background: var(--warn-bg); color: var(--warn-ink); font-size: 0.85rem; display: flex; gap: 0.5rem; align-items: flex-start; }
    .notice .icon { margin-top: 0.15rem; }
    .empty { font-size: 0.9rem; }
    :host([bar]) { background: var(--paper-alt); border-bottom: 1px solid var(--line); --ring-gap: var(--paper-alt); }
    :host([bar]) .call { gap: 0.4rem; padding: 0.45rem 1rem; grid-template-columns: minmax(0, 1fr) auto; align-items: center; }
    :host([bar]) .call > :not(.who):not(.controls) { grid-column: 1 / -1; }
    :host([bar]) .who { display: flex; align-items: center; gap: 0.3rem 0.75rem; flex-wrap: wrap; min-width: 0; }
    :host([bar]) h3 { display: inline-flex; align-items: center; gap: 0.35rem; }
    :host([bar]) button { min-height: 1.9rem; padding: 0.2rem 0.7rem; }
    @media (max-width: 760px) {
      :host([bar]) .call { padding: 0.4rem 0.5rem; }
      :host([bar]) .controls .danger .words, :host([bar]) .e2ee .words { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    }
  `,
  ];

  declare client: DemoClient | null;
  declare channelId: string;
  /** The guild of a voice channel; empty for a lobby's call. */
  declare guildId: string;
  declare bar: boolean;
  readonly #state = new StateController(this, () => this.client?.state);
  readonly #voice = new StateController(this, () => this.client?.voice);

  constructor() {
    super();
    this.client = null;
    this.channelId = '';
    this.guildId = '';
    this.bar = false;
  }

  override render() {
    const client = this.client;
    if (!client) return nothing;
    const voice = client.voice;
    const mine = voice.target?.channelId === this.channelId;
    const lobby = !this.guildId;
    const count = new Set([
      ...client.state.voiceStates.in(this.channelId).map((v) => v.user_id),
      ...(voice.callIn(this.channelId)?.getParticipants() ?? []),
    ]).size;
    const title = lobby ? 'Voice call' : 'In the voice channel';
    const problem = voice.problem?.channelId === this.channelId && !mine ? voice.problem.message : null;
    return html`<section class=${this.bar ? 'call' : 'call card'} aria-label=${lobby ? "The lobby's voice call" : 'Voice'}>
      <div class="who">
        <div class="head">
          <h3>${this.bar ? icon('voice') : nothing}${title} — ${count}</h3>
          ${mine ? this.#status() : nothing}
        </div>
        ${
          count
            ? html`<demo-voice-members .client=${client} channel-id=${this.channelId} layout=${this.bar ? 'row' : 'tiles'} label=${lobby ? 'In the call' : 'In the voice channel'}></demo-voice-members>`
            : html`<p class="empty muted">${lobby ? 'Nobody is in the call.' : 'Nobody is in this voice channel.'}</p>`
        }
      </div>
      <div class="controls">${mine ? this.#inCall(lobby) : this.#join(lobby)}</div>
      ${mine && voice.listeningOnly ? html`<p class="notice" role="alert">${icon('mic-off')}<span>${voice.microphone!.message}</span></p>` : nothing}
      ${problem ? html`<p class="notice" role="alert">${icon('info')}<span>${problem}</span></p>` : nothing}
    </section>`;
  }

  #status() {
    const voice = this.client!.voice;
    const status = voice.status ?? CallStatus.Joining;
    const connected = status === CallStatus.Connected;
    const e2ee = connected && voice.call?.isEndToEndEncrypted();
    return html`<span class="status" role="status" data-status=${connected ? 'connected' : 'pending'}>${icon('signal')} ${callStatusText(status)}</span>
      ${e2ee ? html`<span class="e2ee" title="Every audio frame is encrypted in this page, with keys only the participants hold">${icon('lock')}<span class="words">End-to-end encrypted</span></span>` : nothing}`;
  }

  #join(lobby: boolean) {
    return html`<button type="button" class="primary" @click=${this.#onJoin}>${icon('voice')}<span class="words">${lobby ? 'Join call' : 'Join voice'}</span></button>`;
  }

  #inCall(lobby: boolean) {
    return html`<demo-voice-toggles .voice=${this.client!.voice} ?labelled=${!this.bar}></demo-voice-toggles>
      <button type="button" class="danger" @click=${this.#onLeave}>${icon('phone-off')}<span class="words">${lobby ? 'Leave call' : 'Leave voice'}</span></button>`;
  }

  readonly #onJoin = (): void => {
    const target = { guildId: this.guildId || null, channelId: this.channelId };
    this.client!.voice.join(target).catch((error) => reportError(this, 'Joining the call', error));
  };

  readonly #onLeave = (): void => {
    this.client!.voice.leave().catch((error) => reportError(this, 'Leaving the call', error));
  };
}

customElements.define('demo-voice-panel', DemoVoicePanel);
