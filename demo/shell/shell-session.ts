/**
 * How a tab becomes a client: wait for `<pp-platform>` (service worker and hub), make sure the
 * demo's data exists (seeding it on the first visit), then run the client as the tab's user.
 * A reset, from this tab or another, stops the client and goes through it all again.
 */
import type { PlatformElement } from '../../src/components/platform-element';
import { DemoClient } from './demo-client';
import { errorMessage } from './errors';
import type { EventJournal } from './event-journal';
import { ensureWorld, SEED_LOCK } from './seed';
import { pickUser, type WorldUser } from './world';
import { worldRecordsFor } from './world-records';
import { forgetWorld } from './world-store';

/** Where the tab is: starting the platform, seeding, running, or failed (with the reason). */
export type ShellPhase =
  | { phase: 'starting' }
  | { phase: 'seeding'; steps: string[] }
  | { phase: 'running'; client: DemoClient }
  | { phase: 'unknown-user'; as: string; users: WorldUser[] }
  | { phase: 'failed'; reason: string };

/**
 * The tab's session; fires `change` whenever its phase changes, and `error` (detail: the error)
 * when something failed while the client runs.
 * @example
 * const session = new ShellSession(platform, journal, new URLSearchParams(location.search).get('as'));
 * session.addEventListener('change', () => render(session.state));
 * await session.start();
 */
export class ShellSession extends EventTarget {
  state: ShellPhase = { phase: 'starting' };
  #run = 0;

  constructor(
    readonly platform: PlatformElement,
    private readonly journal: EventJournal,
    private readonly as: string | null,
  ) {
    super();
  }

  /** Starts (or starts again): platform, data, client. */
  async start(): Promise<void> {
    const run = ++this.#run;
    this.#stopClient();
    this.#set({ phase: 'starting' });
    try {
      await this.platform.whenReady();
      const steps: string[] = [];
      const records = worldRecordsFor(this.platform.joinedServer !== null, this.platform.sandbox);
      const world = await ensureWorld(
        this.platform.sandbox,
        (step) => {
          steps.push(step);
          if (run === this.#run) this.#set({ phase: 'seeding', steps: [...steps] });
        },
        records,
      );
      if (run !== this.#run) return;
      const user = pickUser(world, this.as);
      if (!user) {
        this.#set({ phase: 'unknown-user', as: this.as ?? '', users: world.users });
        return;
      }
      this.platform.currentUserId = user.id;
      const client = new DemoClient(world, user, this.platform.sandbox, this.journal, records);
      client.addEventListener('error', (event) =>
        this.dispatchEvent(new CustomEvent('error', { detail: (event as CustomEvent).detail })),
      );
      client.start();
      this.#set({ phase: 'running', client });
      // The client runs; a failed read is told, not a reason to stop.
      client.loadConversations().catch((error) => this.dispatchEvent(new CustomEvent('error', { detail: error })));
    } catch (error) {
      if (run === this.#run) this.#set({ phase: 'failed', reason: errorMessage(error) });
    }
  }

  /**
   * Resets the sandbox (every tab hears of it and starts again). The reset and forgetting the
   * recorded world happen under the seeding lock: another tab that starts again meanwhile waits
   * for it, then finds no world and seeds (or finds the one just seeded), instead of asking the
   * platform about the users of the old world, which would answer 404s.
   */
  async reset(): Promise<void> {
    this.#stopClient();
    this.#set({ phase: 'starting' });
    const reset = async () => {
      await this.platform.sandbox.reset();
      await forgetWorld();
    };
    try {
      await (navigator.locks ? navigator.locks.request(SEED_LOCK, reset) : reset());
    } finally {
      // After a refused reset the data is still there: the client runs on it again.
      void this.start();
    }
  }

  /** Stops the client (the page is going away). */
  stop(): void {
    this.#run++;
    this.#stopClient();
  }

  #stopClient(): void {
    if (this.state.phase === 'running') this.state.client.stop();
  }

  #set(state: ShellPhase): void {
    this.state = state;
    this.dispatchEvent(new Event('change'));
  }
}
