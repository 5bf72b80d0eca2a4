/**
 * Styles every shell component shares: one theme for the whole client, light or dark as the
 * system asks (`prefers-color-scheme`), buttons, fields, focus rings and the visually hidden
 * helper. Every text colour meets WCAG AA on the background it is used on, in both themes.
 */
import { css } from 'lit';

/** The theme's colours, light then dark. Components read them as custom properties. */
const theme = css`
  :host {
    color-scheme: light dark;
    --paper: #ffffff;
    --paper-alt: #f4f5f7;
    --deep: #dfe2e7;
    --elev: #eceef1;
    --hover: rgb(15 23 42 / 0.045);
    --line: #d7dbe0;
    --ink: #1f2328;
    --ink-muted: #57606a;
    --link: #3f3cbb;
    --accent: #4f46e5;
    --accent-ink: #ffffff;
    --accent-soft: #e6e7fc;
    --danger: #b42318;
    --ok: #166534;
    --warn-bg: #fff4d6;
    --warn-ink: #6b4500;
    --code-bg: #f0f2f5;
    --side: #eceef1;
    --side-ink: #1f2328;
    --side-muted: #555d68;
    --side-hover: #dfe2e7;
    --side-active: #d3d7de;
    --online: #1f9d55;
    --idle: #c98a00;
    --dnd: #d13438;
    /* An unread count's pill: white on it reads at 4.5:1 in both themes (the dark theme's --dnd is too light). */
    --badge: #d13438;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --paper: #2b2e35;
      --paper-alt: #25282e;
      --deep: #1b1d21;
      --elev: #373b43;
      --hover: rgb(0 0 0 / 0.16);
      --line: #3c4049;
      --ink: #e6e8eb;
      --ink-muted: #a9afb9;
      --link: #a9b4ff;
      --accent: #5458e8;
      --accent-ink: #ffffff;
      --accent-soft: #383b66;
      --danger: #ff8a80;
      --ok: #5fd38d;
      --warn-bg: #4a3a12;
      --warn-ink: #ffe08a;
      --code-bg: #1f2227;
      --side: #22252a;
      --side-ink: #e1e4e8;
      --side-muted: #9ea5b0;
      --side-hover: #2e3239;
      --side-active: #3a3e47;
      --online: #3fbf74;
      --idle: #e5a50a;
      --dnd: #f0565b;
    }
  }
`;

/** Shared styles; add to a component's `static styles`. */
export const sharedStyles = [
  theme,
  css`
  :host {
    box-sizing: border-box;
    font: 15px/1.4 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    color: var(--ink);
  }
  *, *::before, *::after { box-sizing: inherit; }
  h1, h2, h3, h4 { margin: 0; line-height: 1.25; }
  h2 { font-size: 1rem; }
  h3 { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.04em; color: var(--ink-muted); font-weight: 700; }
  h3 code { text-transform: none; letter-spacing: 0; font-size: 0.95em; }
  p { margin: 0; }
  ul, ol { list-style: none; margin: 0; padding: 0; }
  a { color: var(--link); }
  button, input, select, textarea { font: inherit; color: inherit; }
  button {
    cursor: pointer; border-radius: 6px; border: 1px solid var(--line); background: var(--elev);
    padding: 0.35rem 0.8rem; min-height: 2rem; color: var(--ink);
  }
  button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-ink); font-weight: 600; }
  button.danger { color: var(--danger); border-color: currentColor; background: transparent; }
  button.ghost { background: transparent; border-color: transparent; }
  button:disabled { cursor: not-allowed; opacity: 0.6; }
  button:hover:not(:disabled) { filter: brightness(0.96); }
  input, select, textarea {
    border: 1px solid var(--line); border-radius: 6px; padding: 0.35rem 0.55rem; background: var(--elev); min-height: 2rem;
  }
  :focus-visible { outline: 2px solid var(--link); outline-offset: 2px; }
  code, pre { font: 12.5px/1.45 ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace; }
  pre { background: var(--code-bg); border-radius: 6px; }
  .muted { color: var(--ink-muted); }
  .error { color: var(--danger); }
  .visually-hidden {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; margin: -1px;
  }
  .avatar {
    display: inline-grid; place-items: center; flex: none; width: 2.5rem; height: 2.5rem; border-radius: 50%;
    color: #fff; font-weight: 600; font-size: 0.85rem; position: relative;
  }
  .avatar.small { width: 1.5rem; height: 1.5rem; font-size: 0.6rem; }
  .avatar.medium { width: 2rem; height: 2rem; font-size: 0.75rem; }
  /* The presence dot on an avatar, ringed in the colour behind it. */
  .presence-dot {
    position: absolute; right: -2px; bottom: -2px; width: 0.8rem; height: 0.8rem; border-radius: 50%;
    border: 3px solid var(--dot-ring, var(--paper)); background: var(--online);
  }
  .presence-dot.idle { background: var(--idle); }
  .presence-dot.dnd { background: var(--dnd); }
  svg.icon { vertical-align: -0.125em; flex: none; }
  .card { border: 1px solid var(--line); border-radius: 8px; padding: 0.9rem 1rem; background: var(--paper); min-width: 0; }
  /* A table wider than a phone scrolls inside its box, not the page. */
  .table-scroll { overflow-x: auto; max-width: 100%; }
  /* One column that never grows past its box: wide content (code, tables) scrolls inside. */
  .stack { display: grid; gap: 0.75rem; grid-template-columns: minmax(0, 1fr); }
  .row { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
  .badge {
    display: inline-grid; place-items: center; min-width: 1.15rem; height: 1.15rem; padding: 0 0.3rem; border-radius: 999px;
    background: var(--badge); color: #fff; font-size: 0.7rem; font-weight: 700; line-height: 1;
  }
  .tag { font-size: 0.62rem; font-weight: 700; background: var(--accent); color: var(--accent-ink); border-radius: 4px; padding: 0.05rem 0.3rem; vertical-align: 0.1em; }
`,
];

/** Colours for avatars, each with white text (the initials) at 4.5:1 or more, in both themes. */
export const AVATAR_COLOURS = ['#4338ca', '#b42318', '#1a7f37', '#9a3412', '#6d28d9', '#0e7490', '#a21caf', '#3f6212'];

/**
 * A user's avatar colour: a pure function of the user id, so the same user has the same colour
 * in every view, tab and page load, whatever their presence. FNV-1a with a final mix: ids made
 * one after another differ only in their last digits, and a plain `* 31` hash gave many of them
 * one colour.
 * @example avatarColour('1576025436264206336') // always the same one of AVATAR_COLOURS
 */
export function avatarColour(id: string): string {
  let hash = 0x811c9dc5;
  for (const ch of id) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return AVATAR_COLOURS[(hash >>> 0) % AVATAR_COLOURS.length];
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
