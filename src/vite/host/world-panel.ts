/**
 * The clock and the world: the sandbox clock (every dated rule of the platform follows it), a
 * reset, and the users with what the platform knows of their presence in this application (the
 * rich presence their activity set). Presence is read as the application reads it, with a token
 * the page mints once per user and keeps in memory only.
 */
import { html, render } from 'lit';
import type { SandboxClient } from '../../components/sandbox-client';
import { displayName } from './players';
import type { SandboxWorld } from './world';

/** What the panel shows. */
export interface WorldState {
  clock: { now: string; frozen: boolean } | null;
  /** Each user's rich presence in the application (null: none set). */
  presence: Record<string, { name?: string; details?: string; state?: string } | null>;
  notice: string;
}

/** `2026-11-28T10:00` for an `<input type="datetime-local">`, in the page's time zone. */
function localInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The panel, rendered into `container`.
 * @example const world = new WorldPanel(section, { world, sandbox, reset }); await world.refresh();
 */
export class WorldPanel {
  readonly state: WorldState = { clock: null, presence: {}, notice: '' };
  readonly #tokens = new Map<string, Promise<string>>();

  constructor(
    private readonly container: HTMLElement,
    private readonly context: { world: SandboxWorld; sandbox: SandboxClient; reset(): void },
  ) {}

  /** Reads the clock and every user's presence again. */
  async refresh(): Promise<void> {
    await this.#act('', async () => {
      this.state.clock = await this.context.sandbox.getClock();
      const users = Object.entries(this.context.world.users);
      const found = await Promise.all(users.map(([, id]) => this.#presenceOf(id)));
      this.state.presence = Object.fromEntries(users.map(([, id], i) => [id, found[i]]));
    });
  }

  /** Freezes the sandbox clock at `local` (a `datetime-local` value, in the page's time zone). */
  async setClock(local: string): Promise<void> {
    const at = new Date(local);
    if (Number.isNaN(at.getTime())) return this.#say('Pick a date and time first.');
    await this.#act(`Clock set to ${at.toISOString()}`, async () => {
      this.state.clock = await this.context.sandbox.setClock(at.toISOString());
    });
  }

  /** Puts the clock back to real time. */
  async realTime(): Promise<void> {
    await this.#act('Clock back to real time', async () => {
      this.state.clock = await this.context.sandbox.resetClock();
    });
  }

  /** Renders now. */
  render(): void {
    const { state, context } = this;
    const clock = state.clock;
    let picked = clock ? localInput(clock.now) : '';
    render(
      html`<p>Sandbox time: <output data-part="clock">${clock ? `${clock.now}${clock.frozen ? ' (frozen)' : ' (real time)'}` : 'unknown'}</output></p>
        <div class="row">
          <label>Set to <input type="datetime-local" .value=${picked} @input=${(e: Event) => (picked = (e.target as HTMLInputElement).value)} /></label>
          <button type="button" @click=${() => this.setClock(picked)}>Set the clock</button>
          <button type="button" @click=${() => this.realTime()}>Real time</button>
        </div>
        <h3>Users</h3>
        <ul class="users">${Object.entries(context.world.users).map(([name, id]) => {
          const presence = state.presence[id];
          return html`<li><strong>${displayName(name)}</strong> <code>${id}</code> ·
            ${presence ? `${presence.name ?? 'activity'}: ${[presence.details, presence.state].filter(Boolean).join(' · ') || 'no details'}` : 'no rich presence'}</li>`;
        })}</ul>
        <div class="row">
          <button type="button" @click=${() => this.refresh()}>Refresh</button>
          <button type="button" @click=${context.reset} title="Empty every store of the sandbox and seed it again">Reset sandbox</button>
        </div>
        <p role="status">${state.notice}</p>`,
      this.container,
    );
  }

  async #presenceOf(userId: string): Promise<WorldState['presence'][string]> {
    let token = this.#tokens.get(userId);
    if (!token) {
      token = this.context.sandbox
        .createToken({
          application_id: this.context.world.application_id,
          user_id: userId,
          scopes: 'rpc.activities.write',
        })
        .then((t) => t.access_token);
      this.#tokens.set(userId, token);
    }
    const response = await fetch('/api/v10/users/@me/activities', {
      headers: { Authorization: `Bearer ${await token}` },
    });
    if (!response.ok) throw new Error(`presence of ${userId}: HTTP ${response.status}`);
    const { activities } = (await response.json()) as { activities: WorldState['presence'][string][] };
    return activities[0] ?? null;
  }

  async #act(done: string, action: () => Promise<unknown>): Promise<void> {
    try {
      await action();
      this.#say(done);
    } catch (error) {
      this.#say(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #say(notice: string): void {
    this.state.notice = notice;
    this.render();
  }
}
