/**
 * The sandbox host page's header: whose tab this is (and links that open the others), the
 * application, the platform's and the activity's state, and a reset. Rendered with lit's
 * `render`, again each time something it shows changes.
 */
import { html, nothing, render } from 'lit';

/** What the header shows. */
export interface HostViewState {
  applicationName: string;
  applicationId: string | null;
  users: readonly string[];
  /** The username of this tab. */
  current: string;
  /** The activity frame's state and its RPC's (null before the frame exists). */
  frame: { status: string; rpc: string | null; error: string | null } | null;
  /** A problem the developer has to fix (no application id, an unknown ?as=), or null. */
  problem: string | null;
  onReset(): void;
}

const STYLE = html`<style>
  :root { color-scheme: light; font: 14px/1.4 system-ui, sans-serif; }
  body { margin: 0; display: flex; flex-direction: column; height: 100vh; background: #f2f3f5; color: #1e1f22; }
  header { display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; align-items: center; padding: 0.5rem 1rem; background: #fff; border-bottom: 1px solid #dcdde1; }
  header nav a { margin-right: 0.5rem; color: #4752c4; }
  header nav a[aria-current='page'] { font-weight: 600; color: inherit; text-decoration: none; }
  code { font-size: 12px; background: #ebedef; padding: 0 0.25rem; border-radius: 3px; }
  [role='alert'] { flex-basis: 100%; margin: 0; color: #8b0000; }
  pp-platform { flex: 1; display: flex; flex-direction: column; min-height: 0; }
  pp-activity-frame { flex: 1; min-height: 0; }
  button { font: inherit; }
</style>`;

function userLink(username: string, current: string) {
  const href = `?as=${encodeURIComponent(username)}`;
  const name = username[0].toUpperCase() + username.slice(1);
  return username === current
    ? html`<a href=${href} aria-current="page">${name}</a>`
    : html`<a href=${href} target="_blank" rel="noopener" title=${`Open the activity as ${name} in a new tab`}>${name}</a>`;
}

/**
 * Renders the header into `container`.
 * @example renderHostView(header, { applicationName: 'My Activity', ..., onReset: reset });
 */
export function renderHostView(container: HTMLElement, state: HostViewState): void {
  const frame = state.frame;
  render(
    html`${STYLE}
      <strong>${state.applicationName}</strong>
      ${state.applicationId ? html`<code title="application id">${state.applicationId}</code>` : nothing}
      <nav aria-label="Users">You are ${state.users.map((u) => userLink(u, state.current))}</nav>
      <span>Activity: <output data-part="frame-status">${frame ? frame.status : 'waiting for the platform'}</output>${
        frame?.rpc ? html` · RPC <output data-part="rpc-status">${frame.rpc}</output>` : nothing
      }</span>
      <button type="button" @click=${state.onReset} title="Empty every store of the sandbox and seed it again">Reset sandbox</button>
      ${state.problem ? html`<p role="alert">${state.problem}</p>` : nothing}`,
    container,
  );
}
