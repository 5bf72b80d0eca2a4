/**
 * The sandbox host page's header: whose tab this is (links that open the others, and one that
 * puts every player side by side), the application, the platform's and the activity's state,
 * and a reset. Rendered with lit's `render`, again each time something it shows changes.
 */
import { html, nothing, render } from 'lit';
import { displayName } from './players';

/** What the header shows. */
export interface HostViewState {
  applicationName: string;
  applicationId: string | null;
  users: readonly string[];
  /** The usernames this tab runs as (one, or several side by side). */
  current: readonly string[];
  /** The first player's activity frame state and its RPC's (null before the frame exists). */
  frame: { status: string; rpc: string | null; error: string | null } | null;
  /** A problem the developer has to fix (no application id, an unknown ?as=), or null. */
  problem: string | null;
  onReset(): void;
}

function userLink(username: string, current: readonly string[]) {
  const href = `?as=${encodeURIComponent(username)}`;
  const name = displayName(username);
  return current.length === 1 && current[0] === username
    ? html`<a href=${href} aria-current="page">${name}</a>`
    : html`<a href=${href} target="_blank" rel="noopener" title=${`Open the activity as ${name} in a new tab`}>${name}</a>`;
}

/** The link that puts the first two users (or every player of this tab and one more) side by side. */
function sideBySideLink(state: HostViewState) {
  const together = state.users.slice(0, 2);
  if (together.length < 2) return nothing;
  const same = together.join(',') === state.current.join(',');
  const label = together.map(displayName).join(' | ');
  return html`<a href=${`?as=${together.join(',')}`} aria-current=${same ? 'page' : nothing} title="Every player in this tab, side by side">${label}</a>`;
}

/**
 * Renders the header into `container`.
 * @example renderHostView(header, { applicationName: 'My Activity', ..., onReset: reset });
 */
export function renderHostView(container: HTMLElement, state: HostViewState): void {
  const frame = state.frame;
  render(
    html`<strong>${state.applicationName}</strong>
      ${state.applicationId ? html`<code title="application id">${state.applicationId}</code>` : nothing}
      <nav aria-label="Users">You are ${state.users.map((u) => userLink(u, state.current))} · ${sideBySideLink(state)}</nav>
      <span>Activity: <output data-part="frame-status">${frame ? frame.status : 'waiting for the platform'}</output>${
        frame?.rpc ? html` · RPC <output data-part="rpc-status">${frame.rpc}</output>` : nothing
      }</span>
      <button type="button" @click=${state.onReset} title="Empty every store of the sandbox and seed it again">Reset sandbox</button>
      ${state.problem ? html`<p role="alert">${state.problem}</p>` : nothing}`,
    container,
  );
}
