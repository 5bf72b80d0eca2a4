/**
 * Styles every shell component shares: the palette (every text colour meets WCAG AA on its
 * background), buttons, fields, focus rings and the visually hidden helper.
 */
import { css } from 'lit';

/** Shared styles; add to a component's `static styles`. */
export const sharedStyles = css`
  :host {
    --ink: #1f2328;
    --ink-muted: #57606a;
    --paper: #ffffff;
    --paper-alt: #f3f4f6;
    --line: #d0d7de;
    --accent: #4338ca;
    --accent-ink: #ffffff;
    --danger: #b42318;
    --ok: #1a7f37;
    --side: #1e2228;
    --side-ink: #e6e8eb;
    --side-muted: #a9b0ba;
    --side-hover: #2c323a;
    --side-active: #3b4350;
    box-sizing: border-box;
    font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    color: var(--ink);
  }
  *, *::before, *::after { box-sizing: inherit; }
  h1, h2, h3, h4 { margin: 0; line-height: 1.25; }
  h2 { font-size: 1.05rem; }
  h3 { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.04em; color: var(--ink-muted); }
  h3 code { text-transform: none; letter-spacing: 0; font-size: 0.95em; }
  p { margin: 0; }
  ul { list-style: none; margin: 0; padding: 0; }
  button, input, select, textarea { font: inherit; color: inherit; }
  button {
    cursor: pointer; border-radius: 6px; border: 1px solid var(--line); background: var(--paper);
    padding: 0.35rem 0.8rem; min-height: 2rem;
  }
  button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-ink); }
  button.danger { color: var(--danger); border-color: var(--danger); }
  button:disabled { cursor: not-allowed; opacity: 0.6; }
  button:hover:not(:disabled) { filter: brightness(0.95); }
  input, select, textarea {
    border: 1px solid var(--line); border-radius: 6px; padding: 0.35rem 0.55rem; background: var(--paper); min-height: 2rem;
  }
  :focus-visible { outline: 2px solid #0969da; outline-offset: 2px; }
  code, pre { font: 12px/1.45 ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace; }
  .muted { color: var(--ink-muted); }
  .error { color: var(--danger); }
  .visually-hidden {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; margin: -1px;
  }
  .avatar {
    display: inline-grid; place-items: center; flex: none; width: 2rem; height: 2rem; border-radius: 50%;
    color: #fff; font-weight: 600; font-size: 0.8rem; position: relative;
  }
  svg.icon { vertical-align: -0.125em; flex: none; }
  .card { border: 1px solid var(--line); border-radius: 8px; padding: 0.9rem 1rem; background: var(--paper); min-width: 0; }
  /* A table wider than a phone scrolls inside its box, not the page. */
  .table-scroll { overflow-x: auto; max-width: 100%; }
  .stack { display: grid; gap: 0.75rem; }
  .row { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
`;

/** Colours for avatars, each with white text at 4.5:1 or more. */
const AVATAR_COLOURS = ['#4338ca', '#b42318', '#1a7f37', '#9a3412', '#6d28d9', '#0e7490', '#a21caf', '#3f6212'];

/** A stable avatar colour for a user id. */
export function avatarColour(id: string): string {
  let hash = 0;
  for (const ch of id) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return AVATAR_COLOURS[hash % AVATAR_COLOURS.length];
}

/** One or two initials of a name. */
export function initials(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || '?'
  );
}
