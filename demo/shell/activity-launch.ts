/**
 * `<demo-activity-launch>`: starts the Tic-Tac-Toe sample activity in a voice channel with
 * `<pp-activity-frame>`, and says who takes part in the channel's instance (read from the
 * hub's instance registry, which every tab shares).
 *
 * The activity's application id is a snowflake made when the demo seeded its data, so the frame
 * gets `src` explicitly: the activity's page is `/activities/tic-tac-toe/`, and its own query
 * carries `client_id` (the frame keeps it and adds frame_id, instance_id and the rest).
 */
import { LitElement, css, html, nothing } from 'lit';
import '../../src/components/index';
import type { ActivityFrameStatus } from '../../src/components/activity-frame';
import type { PlatformElement } from '../../src/components/platform-element';
import type { RpcParticipant } from '../../src/rpc/protocol';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { icon } from './icons';
import { sharedStyles } from './styles';
import { displayName } from './world';

/** Where the sample activity's page is served (built from `demo/activities/tic-tac-toe/`). */
export const TIC_TAC_TOE_PATH = '/activities/tic-tac-toe/';

/** The frame's `src` for the activity of `applicationId`. */
export function ticTacToeSrc(applicationId: string): string {
  return `${TIC_TAC_TOE_PATH}?client_id=${encodeURIComponent(applicationId)}`;
}

const STATUS_TEXT: Record<ActivityFrameStatus, string> = {
  idle: 'Not started.',
  starting: 'Starting the activity…',
  running: 'The activity is running.',
  closed: 'The activity closed.',
  error: 'The activity could not start.',
};

/** The activity launcher of a voice channel. */
export class DemoActivityLaunch extends LitElement {
  static override properties = {
    client: { attribute: false },
    channelId: { type: String, attribute: 'channel-id' },
    running: { state: true },
    frameStatus: { state: true },
    participants: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    /*
     * Nothing here may be wider than the column: every box can shrink (min-width: 0), long code
     * scrolls inside its own box, and the launcher's controls wrap onto a new line when they do
     * not fit beside its text, whatever controls it holds.
     */
    :host { display: flex; flex-direction: column; gap: 0.75rem; min-height: 0; min-width: 0; max-width: 100%; }
    :host > * { min-width: 0; max-width: 100%; }
    .launcher { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: flex-start; }
    .launcher > div { flex: 1 1 16rem; min-width: 0; }
    .launcher > button { flex: none; }
    .launcher .who { flex-basis: 100%; }
    .launcher.running { padding: 0.5rem 0.75rem; align-items: center; }
    .launcher.running h2 { font-size: 1rem; }
    .embed summary { cursor: pointer; font-weight: 600; }
    .embed p { margin: 0.6rem 0 0.3rem; }
    .embed pre { margin: 0; padding: 0.6rem 0.75rem; background: var(--code-bg); border-radius: 6px; overflow: auto; max-width: 100%; }
    pp-activity-frame { flex: 1; min-height: 420px; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
  `,
  ];

  declare client: DemoClient | null;
  declare channelId: string;
  declare running: boolean;
  declare frameStatus: ActivityFrameStatus;
  declare participants: RpcParticipant[];
  #refresh: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.client = null;
    this.channelId = '';
    this.running = false;
    this.frameStatus = 'idle';
    this.participants = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#onChange();
    this.client?.state.addEventListener('change', this.#onChange);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.client?.state.removeEventListener('change', this.#onChange);
    clearTimeout(this.#refresh);
  }

  override render() {
    const client = this.client;
    if (!client) return nothing;
    const game = client.world.game;
    const others = this.participants.filter((p) => p.id !== client.user.id);
    const names = this.participants.map((p) => displayName(p));
    return html`
      <section class="card launcher ${this.running ? 'running' : ''}" aria-labelledby="activity-title">
        <div>
          <h2 id="activity-title">${icon('play')} ${game.name}</h2>
          ${
            this.running
              ? nothing
              : html`<p class="muted">A two-player sample activity (demo/activities/tic-tac-toe) on the platformpp activity SDK. Moves travel as lobby messages; your rich presence follows the game.</p>`
          }
        </div>
        ${
          this.running
            ? html`<button type="button" @click=${() => this.#stop()}>Leave the activity</button>`
            : html`<button type="button" class="primary" @click=${() => this.#start()}>${others.length ? `Join ${game.name}` : `Start ${game.name}`}</button>`
        }
        <p class="who" role="status" aria-live="polite">
          ${names.length ? html`In this channel's instance: <strong>${names.join(', ')}</strong>.` : 'Nobody is playing here yet.'}
          ${this.running && this.frameStatus !== 'running' ? html`<span class="muted">${STATUS_TEXT[this.frameStatus]}</span>` : nothing}
        </p>
      </section>
      ${this.running ? nothing : this.#embedHint(client)}
      ${
        this.running
          ? html`<pp-activity-frame
            application-id=${game.application_id}
            guild-id=${client.world.guild.id}
            channel-id=${this.channelId}
            user-id=${client.user.id}
            src=${ticTacToeSrc(game.application_id)}
            @pp-activity-status=${this.#onFrameStatus}
          ></pp-activity-frame>`
          : nothing
      }
    `;
  }

  /** How this page embeds the activity, with this channel's ids: what a developer copies for their own. */
  #embedHint(client: DemoClient) {
    const { game, guild } = client.world;
    const host = `<pp-platform current-user-id="${client.user.id}">
  <pp-activity-frame application-id="${game.application_id}" guild-id="${guild.id}"
    channel-id="${this.channelId}" src="${ticTacToeSrc(game.application_id)}"></pp-activity-frame>
</pp-platform>`;
    const activity = `import { ActivitySdk } from 'platformpp-web/activity';
const sdk = new ActivitySdk(clientId);
await sdk.ready();
const { code } = await sdk.commands.authorize({ client_id: clientId, scope: ['identify'] });`;
    return html`<details class="card embed">
      <summary>Embed your own activity</summary>
      <p>The host page (this one) puts the activity in a frame:</p>
      <pre tabindex="0"><code>${host}</code></pre>
      <p>The activity's page talks to it with the activity SDK (see demo/activities/tic-tac-toe/main.ts):</p>
      <pre tabindex="0"><code>${activity}</code></pre>
    </details>`;
  }

  #start(): void {
    this.running = true;
  }

  #stop(): void {
    this.running = false;
    this.frameStatus = 'idle';
    this.#onChange();
  }

  readonly #onFrameStatus = (event: CustomEvent<{ status: ActivityFrameStatus; error: string | null }>): void => {
    this.frameStatus = event.detail.status;
    if (event.detail.status === 'error')
      reportError(this, `Starting ${this.client?.world.game.name}`, new Error(event.detail.error ?? 'no reason given'));
    this.#onChange();
  };

  /** Reads the instance again soon: joins and leaves show as presence changes and frame statuses. */
  readonly #onChange = (): void => {
    clearTimeout(this.#refresh);
    this.#refresh = setTimeout(() => void this.#readInstance(), 150);
  };

  async #readInstance(): Promise<void> {
    const client = this.client;
    const hub = (document.querySelector('pp-platform') as PlatformElement | null)?.hub;
    if (!client || !hub) return;
    try {
      const instance = await hub.instances.find(client.world.game.application_id, this.channelId);
      this.participants = instance?.participants ?? [];
    } catch (error) {
      reportError(this, 'Reading the activity instance', error);
    }
  }
}

customElements.define('demo-activity-launch', DemoActivityLaunch);
