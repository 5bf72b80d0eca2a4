/**
 * The shell's layout: a header over three columns (channels, the view, members) on a wide
 * screen; on a narrow one (760px and less) one column at a time, chosen with a tab bar at the
 * bottom. Hidden columns stay in the page, so a running activity keeps running behind them.
 */
import { css } from 'lit';

/** `<demo-app>`'s styles. */
export const shellStyles = css`
  :host { display: block; height: 100vh; height: 100dvh; background: var(--paper); }
  .app {
    display: grid; height: 100%;
    grid-template: 'top top top' auto 'nav main members' minmax(0, 1fr) / 15rem minmax(0, 1fr) 16rem;
  }
  .top {
    grid-area: top; display: flex; align-items: center; gap: 0.5rem 1rem; flex-wrap: wrap;
    padding: 0.5rem 1rem; background: #14171b; color: #f0f2f4;
  }
  .top h1 { font-size: 1.05rem; white-space: nowrap; }
  .top h1 .muted { color: #a9b0ba; font-weight: 400; }
  .status { font-size: 0.8rem; padding: 0.1rem 0.6rem; border-radius: 999px; background: #3b4350; color: #fff; }
  .status[data-status='ready'] { background: #1a7f37; }
  .status[data-status='offline'] { background: #fff1c2; color: #5c3c00; }
  .status[data-status='error'] { background: #fddcdc; color: #8b0000; }
  .user { display: flex; align-items: center; gap: 0.5rem; flex-wrap: wrap; margin-left: auto; font-size: 0.85rem; }
  .user select { background: #22272e; color: #f0f2f4; border-color: #4b5563; }
  .user a { color: #a5b4fc; }
  .gateway { font-size: 0.75rem; color: #a9b0ba; white-space: nowrap; display: inline-flex; align-items: center; gap: 0.3rem; }
  .gateway .dot { width: 0.5rem; height: 0.5rem; border-radius: 50%; background: #4ade80; }
  .gateway[data-state='connecting'] .dot { background: #fbbf24; }
  .gateway[data-state='closed'] { color: #fca5a5; white-space: normal; }
  .gateway[data-state='closed'] .dot { background: #f87171; }
  .nav { grid-area: nav; }
  .main { grid-area: main; min-height: 0; min-width: 0; overflow: hidden; display: grid; grid-template-columns: minmax(0, 1fr); }
  .main > * { min-height: 0; }
  .members { grid-area: members; }
  .tabs { display: none; }
  .setup { grid-column: 1 / -1; padding: 2rem 1rem; display: grid; justify-items: center; align-content: start; }
  .setup .card { max-width: 36rem; width: 100%; }
  .setup ol { margin: 0; padding-left: 1.2rem; }
  .alerts { position: fixed; right: 1rem; bottom: 1rem; display: grid; gap: 0.5rem; max-width: min(28rem, calc(100vw - 2rem)); z-index: 10; }
  .alert {
    display: flex; gap: 0.75rem; align-items: flex-start; padding: 0.75rem 0.9rem; border-radius: 8px;
    background: #fff5f5; color: #5c0a0a; border: 1px solid #f1a7a7; box-shadow: 0 4px 14px rgb(0 0 0 / 0.15);
  }
  .alert p { flex: 1; overflow-wrap: anywhere; }

  @media (max-width: 760px) {
    .app { grid-template: 'top' auto 'pane' minmax(0, 1fr) 'tabs' auto / minmax(0, 1fr); }
    .top { padding: 0.5rem 0.75rem; }
    .user { margin-left: 0; }
    .wide-only { display: none; }
    /* The select says who you are by itself; its label stays for screen readers. */
    .you-are { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    .top { gap: 0.35rem 0.75rem; }
    .pane { grid-area: pane; }
    .app[data-pane='nav'] .main, .app[data-pane='nav'] .members,
    .app[data-pane='main'] .nav, .app[data-pane='main'] .members,
    .app[data-pane='members'] .nav, .app[data-pane='members'] .main { visibility: hidden; pointer-events: none; }
    .members { border-left: 0; }
    .tabs { grid-area: tabs; display: grid; grid-template-columns: repeat(3, 1fr); border-top: 1px solid var(--line); background: var(--paper-alt); }
    .tabs button { border: 0; border-radius: 0; background: transparent; min-height: 3rem; color: var(--ink-muted); }
    .tabs button[aria-pressed='true'] { color: var(--accent); font-weight: 600; box-shadow: inset 0 3px 0 var(--accent); }
    .alerts { bottom: 4rem; right: 0.5rem; }
  }
`;
