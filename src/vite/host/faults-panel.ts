/**
 * The host page's faults and limits (docs/faults.md), folded under one `<details>` beside the
 * header: the sandbox's HTTP rate limits on or off, a gateway fault for this tab's user or for
 * every session, the next HTTP requests on a path answering 429 or 502, and the shared worker
 * stopped now (browser sandbox only). What it injects shows in the status line.
 */
import { html, render } from 'lit';
import type { SandboxClient } from '../../components/sandbox-client';
import type { FaultRequest } from '../../components/sandbox-faults';

/** The gateway faults offered. */
const GATEWAY: [string, FaultRequest][] = [
  ['RECONNECT', { type: 'reconnect' }],
  ['INVALID_SESSION', { type: 'invalid_session', resumable: false }],
  ['Zombie (no heartbeat ACK)', { type: 'zombie' }],
  ['Hold dispatches 5 s', { type: 'hold_dispatches', duration_ms: 5000 }],
];

/**
 * Builds the panel for `sandbox`; `userId` is this tab's user, `browser` whether the platform runs
 * in this browser (a shared worker to stop).
 * @example document.body.insertBefore(faultsPanel(platform.sandbox, { userId, browser: true }), platform);
 */
export function faultsPanel(sandbox: SandboxClient, options: { userId: string; browser: boolean }): HTMLElement {
  const root = document.createElement('details');
  root.className = 'pp-faults';
  let status = '';
  let limits = false;
  const draw = () =>
    render(
      html`<style>
          .pp-faults { background: #fff; border-bottom: 1px solid #dcdde1; padding: 0.25rem 1rem; }
          .pp-faults summary { cursor: pointer; }
          .pp-faults div { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin: 0.4rem 0; }
        </style>
        <summary>Faults and limits</summary>
        <div role="group" aria-label="Rate limits">
          <label><input type="checkbox" .checked=${limits} @change=${(e: Event) => setLimits((e.target as HTMLInputElement).checked)} /> Rate limit this sandbox as the platform does</label>
        </div>
        <div role="group" aria-label="Gateway faults for this tab's user">
          ${GATEWAY.map(([label, fault]) => html`<button type="button" @click=${() => inject({ ...fault, user_id: options.userId } as FaultRequest)}>${label}</button>`)}
          ${options.browser ? html`<button type="button" @click=${() => inject({ type: 'stop_shared_worker' })}>Stop the shared worker</button><button type="button" @click=${() => inject({ type: 'stop_service_worker' })}>Stop the service worker</button>` : ''}
        </div>
        <div role="group" aria-label="HTTP faults on the next request">
          ${[429, 502].map(
            (code) =>
              html`<button type="button" @click=${() => inject({ type: 'http_error', status: code as 429, method: 'GET', path: '/api/v10/users/@me' })}>${code} on the next GET /users/@me</button>`,
          )}
          <button type="button" @click=${() => sandbox.clearFaults().then(() => say('Pending faults cleared.'), fail)}>Clear pending</button>
        </div>
        <p role="status">${status}</p>`,
      root,
    );
  const say = (text: string) => {
    status = text;
    draw();
  };
  const fail = (error: unknown) => say(`Refused: ${error instanceof Error ? error.message : String(error)}`);
  const inject = (fault: FaultRequest) =>
    sandbox.injectFault(fault).then((f) => say(`Injected ${f.type} at ${new Date().toLocaleTimeString()}.`), fail);
  const setLimits = (enabled: boolean) =>
    sandbox.setRateLimits({ enabled }).then((s) => {
      limits = s.enabled;
      say(s.enabled ? 'Rate limits on.' : 'Rate limits off.');
    }, fail);
  draw();
  sandbox.getRateLimits().then((s) => {
    limits = s.enabled;
    draw();
  }, fail);
  return root;
}
