/**
 * The shell's layout: a slim bar over three columns (channels, the view, members) on a wide
 * screen; on a narrow one (760px and less) one column at a time, chosen with a tab bar at the
 * bottom. Hidden columns stay in the page, so a running activity keeps running behind them.
 */
import { css } from 'lit';

/** `<demo-app>`'s styles. */
export const shellStyles = css`
  :host { display: block; height: 100vh; height: 100dvh; background: var(--paper); }
  .app {
    display: grid; height: 100%;
    grid-template: 'top top top' auto 'nav main members' minmax(0, 1fr) / 15.5rem minmax(0, 1fr) 15rem;
  }
  .top {
    grid-area: top; display: flex; align-items: center; gap: 0.4rem 0.9rem; flex-wrap: wrap;
    padding: 0.35rem 0.75rem; background: var(--deep); color: var(--ink); border-bottom: 1px solid var(--line);
  }
  .top h1 { font-size: 0.95rem; white-space: nowrap; letter-spacing: 0.01em; }
  .top h1 .mark { color: var(--accent); }
  .top h1 .muted { font-weight: 400; }
  .status { font-size: 0.72rem; font-weight: 600; padding: 0.1rem 0.55rem; border-radius: 999px; background: var(--elev); color: var(--ink-muted); }
  .status[data-status='ready'] { background: transparent; color: var(--ok); border: 1px solid currentColor; }
  .status[data-status='offline'] { background: var(--warn-bg); color: var(--warn-ink); }
  .status[data-status='error'] { background: var(--danger); color: var(--paper); }
  .user { display: flex; align-items: center; gap: 0.5rem; flex-wrap: wrap; margin-left: auto; font-size: 0.8rem; }
  .user select { min-height: 1.8rem; padding: 0.1rem 0.4rem; background: var(--paper); }
  .you-are { color: var(--ink-muted); }
  .open-tab {
    display: inline-block; line-height: 1.6rem; padding: 0 0.6rem; border-radius: 6px;
    border: 1px solid var(--line); background: var(--paper); color: var(--ink); text-decoration: none;
  }
  .open-tab:hover { background: var(--elev); }
  .gateway { font-size: 0.75rem; color: var(--ink-muted); white-space: nowrap; display: inline-flex; align-items: center; gap: 0.35rem; }
  .gateway .dot { width: 0.5rem; height: 0.5rem; border-radius: 50%; background: var(--online); }
  .gateway[data-state='connecting'] .dot { background: var(--idle); }
  .gateway[data-state='closed'] { color: var(--danger); white-space: normal; }
  .gateway[data-state='closed'] .dot { background: var(--dnd); }
  .nav { grid-area: nav; }
  .main { grid-area: main; min-height: 0; min-width: 0; overflow: hidden; display: grid; grid-template-columns: minmax(0, 1fr); background: var(--paper); }
  .main > * { min-height: 0; min-width: 0; }
  .members { grid-area: members; }
  .tabs { display: none; }
  .setup { grid-column: 1 / -1; padding: 2rem 1rem; display: grid; justify-items: center; align-content: start; }
  .setup .card { max-width: 36rem; width: 100%; }
  .setup ol { margin: 0; padding-left: 1.2rem; list-style: decimal; }
  .choices { display: grid; gap: 0.35rem; }
  .alerts { position: fixed; right: 1rem; bottom: 1rem; display: grid; gap: 0.5rem; max-width: min(28rem, calc(100vw - 2rem)); z-index: 10; }
  .alert {
    display: flex; gap: 0.75rem; align-items: flex-start; padding: 0.75rem 0.9rem; border-radius: 8px;
    background: var(--paper); color: var(--ink); border: 1px solid var(--danger); border-left-width: 4px; box-shadow: 0 6px 20px rgb(0 0 0 / 0.25);
  }
  .alert p { flex: 1; overflow-wrap: anywhere; }
  .alert strong { color: var(--danger); }

  @media (max-width: 1000px) {
    .app { grid-template-columns: 14rem minmax(0, 1fr) 13rem; }
  }
  @media (max-width: 760px) {
    .app { grid-template: 'top' auto 'pane' minmax(0, 1fr) 'tabs' auto / minmax(0, 1fr); }
    .top { padding: 0.35rem 0.6rem; gap: 0.3rem 0.6rem; }
    .user { margin-left: 0; width: 100%; flex-wrap: nowrap; }
    .user select { min-width: 0; flex: 0 1 auto; }
    .wide-only { display: none; }
    /* The select says who you are by itself; its label stays for screen readers. */
    .you-are { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    /* The gateway's state as its dot alone (its words stay for screen readers). */
    .gateway { margin-left: auto; order: 3; font-size: 0; gap: 0; }
    .gateway .dot { width: 0.6rem; height: 0.6rem; }
    .gateway[data-state='closed'] { font-size: 0.75rem; }
    .pane { grid-area: pane; }
    .app[data-pane='nav'] .main, .app[data-pane='nav'] .members,
    .app[data-pane='main'] .nav, .app[data-pane='main'] .members,
    .app[data-pane='members'] .nav, .app[data-pane='members'] .main { visibility: hidden; pointer-events: none; }
    .members { border-left: 0; }
    .tabs { grid-area: tabs; display: grid; grid-template-columns: repeat(3, 1fr); border-top: 1px solid var(--line); background: var(--deep); }
    .tabs button { border: 0; border-radius: 0; background: transparent; min-height: 3rem; color: var(--ink-muted); display: grid; justify-items: center; gap: 0.1rem; font-size: 0.75rem; }
    .tabs button .icon { font-size: 1.15rem; }
    .tabs button[aria-pressed='true'] { color: var(--link); font-weight: 700; }
    .alerts { bottom: 4rem; right: 0.5rem; }
  }
`;
