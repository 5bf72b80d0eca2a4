/**
 * `<demo-own-activity>`: "Run your own activity" in a voice channel. Any page of this origin,
 * or of another origin that allows being embedded here, runs as an activity in
 * `<pp-activity-frame>`, for the application id it hands to its SDK (created in the sandbox
 * when it does not exist yet). When nothing shakes hands, it says what usually went wrong:
 * the browser refused to embed the page (this demo is cross-origin isolated), or the page
 * uses another client id.
 */
import { LitElement, css, html, nothing } from 'lit';
import '../../src/components/index';
import type { ActivityFrame } from '../../src/components/activity-frame';
import type { PlatformElement } from '../../src/components/platform-element';
import { SandboxError } from '../../src/components/sandbox-client';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { sharedStyles } from './styles';

/** How long the frame may stay without a handshake before the page explains why that may be. */
const SILENCE_MS = 6000;

/** The activity to run, as the form gives it. */
interface OwnActivity {
  src: string;
  applicationId: string;
}

/** The voice channel's "Run your own activity" control. */
export class DemoOwnActivity extends LitElement {
  static override properties = {
    client: { attribute: false },
    channelId: { type: String, attribute: 'channel-id' },
    running: { state: true },
    rpc: { state: true },
    silent: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: block; }
    form { display: grid; grid-template-columns: 1fr 14rem auto; gap: 0.5rem; align-items: end; margin-top: 0.6rem; }
    label { display: grid; gap: 0.2rem; font-size: 0.85rem; color: var(--ink-muted); }
    input { padding: 0.35rem 0.5rem; border: 1px solid var(--line); border-radius: 6px; }
    details p, details li { margin: 0.4rem 0; }
    details ul { list-style: disc; padding-left: 1.25rem; }
    pp-activity-frame { margin-top: 0.75rem; min-height: 360px; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
    [role='alert'] { margin-top: 0.6rem; color: var(--danger); }
    @media (max-width: 760px) { form { grid-template-columns: 1fr; } }
  `,
  ];

  declare client: DemoClient | null;
  declare channelId: string;
  declare running: OwnActivity | null;
  declare rpc: string | null;
  declare silent: boolean;
  #silence: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.client = null;
    this.channelId = '';
    this.running = null;
    this.rpc = null;
    this.silent = false;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#silence);
  }

  override render() {
    const client = this.client;
    if (!client) return nothing;
    const run = this.running;
    return html`<details class="card" ?open=${run !== null}>
      <summary><strong>Run your own activity</strong></summary>
      <form @submit=${this.#submit}>
        <label>Activity URL
          <input name="src" required placeholder="/my-activity/ or http://localhost:5173/" autocomplete="url" />
        </label>
        <label>Its application id (client id)
          <input name="application" required pattern="\\d{1,20}" placeholder="1234567890123456789" inputmode="numeric" />
        </label>
        <button type="submit" class="primary">${run ? 'Run again' : 'Run'}</button>
      </form>
      ${run ? html`<p role="status">RPC: ${this.rpc ?? 'starting'}</p>` : nothing}
      ${this.silent && run ? this.#refused(run) : nothing}
      ${this.#help()}
      ${
        run
          ? html`<pp-activity-frame
            application-id=${run.applicationId}
            guild-id=${client.world.guild.id}
            channel-id=${this.channelId}
            user-id=${client.user.id}
            src=${run.src}
            @pp-activity-handshake=${this.#onRpc}
            @pp-activity-status=${this.#onRpc}
          ></pp-activity-frame>`
          : nothing
      }
    </details>`;
  }

  #refused(run: OwnActivity) {
    const other = new URL(run.src, location.href).origin !== location.origin;
    return html`<div role="alert">
      <p>No HANDSHAKE from ${run.src} after ${SILENCE_MS / 1000} s.</p>
      ${
        other
          ? html`<p>If the frame shows an error page, the browser refused to embed it: this page is cross-origin isolated (<code>Cross-Origin-Embedder-Policy: require-corp</code>), so another origin's page must answer with <code>Cross-Origin-Embedder-Policy: require-corp</code> and <code>Cross-Origin-Resource-Policy: cross-origin</code> (with Vite: <code>server.headers</code>), and without <code>X-Frame-Options</code> or a <code>frame-ancestors</code> policy that excludes this origin.</p>`
          : nothing
      }
      <p>Otherwise the page creates its SDK with another client id than ${run.applicationId}, or none (the browser console says which).</p>
    </div>`;
  }

  #help() {
    return html`<details>
      <summary>What runs here, and what to do when the browser refuses it</summary>
      <ul>
        <li>A path of this origin runs as it is: the platform's service worker answers its <code>/.proxy/api/...</code> and <code>https://discord.com/api/...</code> requests.</li>
        <li>A page of another origin (your activity's own dev server) gets the RPC from this page if its SDK accepts messages from here (<code>platformpp-web/activity</code> does), but its own HTTP requests go to its own server. The public embedded-app SDK reads messages only from its own origin and the platform's: for it, add <code>platformpp()</code> from <code>platformpp-web/vite</code> to the activity's server and open its <code>/__platformpp/</code> instead (docs/your-own-activity.md).</li>
        <li>The application id is the one your activity hands to <code>new DiscordSDK(...)</code>; the sandbox creates the application when it does not have it.</li>
      </ul>
    </details>`;
  }

  readonly #submit = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const activity = { src: String(form.get('src')).trim(), applicationId: String(form.get('application')).trim() };
    try {
      new URL(activity.src, location.href);
      await this.#ensureApplication(activity.applicationId);
    } catch (error) {
      reportError(this, 'Running your activity', error);
      return;
    }
    this.running = null;
    await this.updateComplete;
    Object.assign(this, { running: activity, rpc: null, silent: false });
    clearTimeout(this.#silence);
    this.#silence = setTimeout(() => (this.silent = this.rpc !== 'ready'), SILENCE_MS);
  };

  /** Creates the application in the sandbox unless it exists, so its frame can run. */
  async #ensureApplication(id: string): Promise<void> {
    const sandbox = (document.querySelector('pp-platform') as PlatformElement).sandbox;
    try {
      await sandbox.getApplication(id);
    } catch (error) {
      if (!(error instanceof SandboxError && error.status === 404)) throw error;
      await sandbox.createApplication({ name: 'Your activity', id, owner_id: this.client!.user.id });
    }
  }

  readonly #onRpc = (event: Event): void => {
    const frame = event.target as ActivityFrame;
    this.rpc = frame.status === 'error' ? `error: ${frame.error}` : frame.rpcStatus;
    if (this.rpc === 'ready') this.silent = false;
  };
}

customElements.define('demo-own-activity', DemoOwnActivity);
