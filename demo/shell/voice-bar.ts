/**
 * `<demo-voice-bar>`: the user's call at the foot of the left column, wherever they are in the
 * client, as the platform's client has it: whether it is connected, where (a link back to the
 * voice channel or the lobby), whether it is end-to-end encrypted or listening only, and a
 * button to leave. Nothing while the user is in no call.
 */
import { LitElement, css, html, nothing } from 'lit';
import { CallStatus } from '../../src/sdk/call-status';
import { callStatusText } from './call-words';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { icon } from './icons';
import { lobbyName } from './lobby-name';
import { StateController } from './state-controller';
import { sharedStyles } from './styles';

/** The user's call, in the left column. */
export class DemoVoiceBar extends LitElement {
  static override properties = {
    client: { attribute: false },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: block; }
    section { display: flex; align-items: center; gap: 0.5rem; padding: 0.45rem 0.5rem 0.45rem 0.75rem; background: var(--deep); border-top: 1px solid var(--line); }
    .where { flex: 1; min-width: 0; display: grid; line-height: 1.25; }
    .status { font-size: 0.8rem; font-weight: 700; color: var(--side-muted); display: inline-flex; align-items: center; gap: 0.3rem; }
    .status[data-status='connected'] { color: var(--ok); }
    .where a, .where .note { font-size: 0.75rem; color: var(--side-muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .where a { text-decoration: none; }
    .where a:hover { text-decoration: underline; color: var(--side-ink); }
    .note { display: inline-flex; align-items: center; gap: 0.25rem; }
    .note.warn { color: var(--danger); }
    button { background: transparent; border-color: transparent; padding: 0; width: 2rem; min-height: 2rem; color: var(--side-muted); font-size: 1.05rem; display: inline-grid; place-items: center; }
    button:hover { background: var(--side-hover); color: var(--danger); }
  `,
  ];

  declare client: DemoClient | null;
  readonly #voice = new StateController(this, () => this.client?.voice);
  readonly #state = new StateController(this, () => this.client?.state);

  constructor() {
    super();
    this.client = null;
  }

  override render() {
    const client = this.client;
    const target = client?.voice.target;
    if (!client || !target) return nothing;
    const voice = client.voice;
    const status = voice.status ?? CallStatus.Joining;
    const connected = status === CallStatus.Connected;
    const channel = target.guildId
      ? client.state.guilds.get(target.guildId)?.channels.get(target.channelId)
      : undefined;
    const lobby = target.guildId ? undefined : client.state.lobbies.get(target.channelId);
    const where = channel
      ? `${channel.name} / ${client.state.guilds.get(target.guildId!)?.name ?? ''}`
      : lobby
        ? `${lobbyName(lobby, client.lobbySecret(lobby.id))} / lobby call`
        : 'a call';
    const href = target.guildId ? `#/channel/${target.channelId}` : `#/lobby/${target.channelId}`;
    return html`<section aria-label="Your call">
      <div class="where">
        <span class="status" role="status" data-status=${connected ? 'connected' : 'pending'}>${icon('signal')} ${callStatusText(status)}</span>
        <a href=${href}>${where}</a>
        ${
          voice.listeningOnly
            ? html`<span class="note warn" title="No microphone: the others cannot hear you">${icon('mic-off')} Listening only</span>`
            : connected && voice.call?.isEndToEndEncrypted()
              ? html`<span class="note">${icon('lock')} End-to-end encrypted</span>`
              : nothing
        }
      </div>
      <button type="button" aria-label="Leave the call" title="Leave the call" @click=${this.#leave}>${icon('phone-off')}</button>
    </section>`;
  }

  readonly #leave = (): void => {
    this.client!.voice.leave().catch((error) => reportError(this, 'Leaving the call', error));
  };
}

customElements.define('demo-voice-bar', DemoVoiceBar);
