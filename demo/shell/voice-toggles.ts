/**
 * `<demo-voice-toggles>`: the user's Mute and Deafen buttons, as the platform's client has
 * them beside the user's name and in a call: they hold for every call (and for the next one,
 * out of a call). Deafened, the microphone shows muted too, as nobody hears a deafened user;
 * Mute while deafened undeafens and unmutes at once, as the platform's client does. Both are
 * toggle buttons (`aria-pressed`, named Mute and Deafen whatever their state, as toggle buttons
 * are); with `labelled` they say their name beside the icon.
 */
import { LitElement, css, html, nothing } from 'lit';
import { icon } from './icons';
import { StateController } from './state-controller';
import { sharedStyles } from './styles';
import type { DemoVoice } from './voice-session';

/** The Mute and Deafen buttons. */
export class DemoVoiceToggles extends LitElement {
  static override properties = {
    voice: { attribute: false },
    labelled: { type: Boolean },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: inline-flex; gap: 0.25rem; }
    button { display: inline-flex; align-items: center; gap: 0.4rem; }
    button[aria-pressed='true'] { color: var(--danger); border-color: currentColor; }
    :host(:not([labelled])) button {
      background: transparent; border-color: transparent; padding: 0; width: 2rem; min-height: 2rem; justify-content: center;
      color: var(--side-muted, var(--ink-muted)); font-size: 1.05rem;
    }
    :host(:not([labelled])) button:hover { background: var(--side-hover, var(--hover)); color: var(--side-ink, var(--ink)); }
    :host(:not([labelled])) button[aria-pressed='true'] { color: var(--danger); }
  `,
  ];

  declare voice: DemoVoice | null;
  declare labelled: boolean;
  readonly #voice = new StateController(this, () => this.voice);

  constructor() {
    super();
    this.voice = null;
    this.labelled = false;
  }

  override render() {
    const voice = this.voice;
    if (!voice) return nothing;
    // Nobody hears a deafened user: the microphone shows muted while deafened.
    const silent = voice.muted || voice.deafened;
    return html`
      <button type="button" aria-pressed=${silent ? 'true' : 'false'} aria-label="Mute" title=${silent ? 'Unmute' : 'Mute'} @click=${this.#toggleMute}>
        ${icon(silent ? 'mic-off' : 'mic')}${this.labelled ? html`<span>Mute</span>` : nothing}
      </button>
      <button type="button" aria-pressed=${voice.deafened ? 'true' : 'false'} aria-label="Deafen" title=${voice.deafened ? 'Undeafen' : 'Deafen'} @click=${this.#toggleDeafen}>
        ${icon(voice.deafened ? 'headphones-off' : 'headphones')}${this.labelled ? html`<span>Deafen</span>` : nothing}
      </button>
    `;
  }

  readonly #toggleMute = (): void => {
    const voice = this.voice!;
    if (voice.deafened) {
      voice.setDeafened(false);
      voice.setMuted(false);
    } else voice.setMuted(!voice.muted);
  };

  readonly #toggleDeafen = (): void => {
    this.voice!.setDeafened(!this.voice!.deafened);
  };
}

customElements.define('demo-voice-toggles', DemoVoiceToggles);
