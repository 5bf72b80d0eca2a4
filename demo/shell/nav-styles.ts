/**
 * `<demo-nav>`'s styles: the sidebar of the one theme, its sections, links with an icon, an
 * unread count and a muted tag, the people of the direct messages with their presence, and the
 * user's own panel at the bottom.
 */
import { css } from 'lit';

/** The left column's styles. */
export const navStyles = css`
  :host { display: flex; flex-direction: column; background: var(--side); color: var(--side-ink); min-height: 0; --dot-ring: var(--side); }
  /* Not a <header>: inside a shadow root it would be a second banner landmark beside the page's. */
  .guild-head { display: flex; align-items: center; min-height: 3.25rem; padding: 0 1rem; border-bottom: 1px solid var(--line); box-shadow: 0 1px 2px rgb(0 0 0 / 0.06); }
  .guild-head h2 { font-size: 1rem; }
  nav { flex: 1; overflow-y: auto; overflow-x: hidden; padding: 0.6rem 0.5rem 1rem; display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; align-content: start; }
  h3 { color: var(--side-muted); padding: 0 0.5rem 0.3rem; font-size: 0.7rem; }
  a {
    display: flex; gap: 0.5rem; align-items: center; padding: 0.32rem 0.5rem; border-radius: 6px;
    color: var(--side-muted); text-decoration: none; min-height: 2.1rem;
  }
  a:hover { background: var(--side-hover); color: var(--side-ink); }
  a[aria-current='page'] { background: var(--side-active); color: var(--side-ink); }
  a.unread { color: var(--side-ink); font-weight: 700; }
  a.unread::before { content: ''; position: absolute; left: 0; width: 4px; height: 0.5rem; border-radius: 0 4px 4px 0; background: var(--side-ink); }
  li { position: relative; }
  .icon { width: 1.15rem; text-align: center; flex: none; opacity: 0.85; }
  .label { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .tag-muted { font-size: 0.7rem; color: var(--side-muted); font-weight: 400; }
  a.person { padding-top: 0.25rem; padding-bottom: 0.25rem; }
  a:hover .presence-dot, a[aria-current='page'] .presence-dot { --dot-ring: var(--side-active); }
  .voice-members { margin-bottom: 0.15rem; }
  .waiting { padding: 0 0.5rem; color: var(--side-muted); }
  form { display: grid; gap: 0.3rem; padding: 0.4rem 0.5rem 0; }
  label { font-size: 0.75rem; color: var(--side-muted); }
  .join { display: flex; gap: 0.35rem; }
  .join input { flex: 1; min-width: 0; width: 0; background: var(--paper); }
  .join button { white-space: nowrap; }
  .me {
    display: flex; align-items: center; gap: 0.55rem; padding: 0.5rem 0.75rem; background: var(--deep);
    border-top: 1px solid var(--line); --dot-ring: var(--deep);
  }
  .who { display: grid; min-width: 0; line-height: 1.2; font-size: 0.85rem; }
  .who > * { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .who .muted { font-size: 0.75rem; color: var(--side-muted); }
`;
