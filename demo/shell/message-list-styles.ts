/**
 * `<demo-message-list>`'s styles: the log fills its box and starts at the bottom; group heads
 * carry the avatar, continuation lines the time in the gutter on hover; the actions float at the
 * message's top right.
 */
import { css } from 'lit';

/** The message list's styles. */
export const messageListStyles = css`
  :host { display: block; min-height: 0; position: relative; }
  .scroller { height: 100%; overflow-y: auto; display: flex; flex-direction: column; overscroll-behavior: contain; }
  .scroller:focus-visible { outline-offset: -2px; }
  ol { margin-top: auto; padding: 0.75rem 0 0.5rem; }
  .intro { padding: 1rem 1rem 0.75rem; }
  .intro h3 { font-size: 1.45rem; text-transform: none; letter-spacing: 0; color: var(--ink); margin-bottom: 0.2rem; }
  .empty { padding: 1rem; }
  .message { position: relative; display: grid; grid-template-columns: 2.5rem minmax(0, 1fr); column-gap: 0.85rem; padding: 0.1rem 1rem 0.1rem 1rem; }
  .message.head { margin-top: 0.9rem; padding-top: 0.15rem; }
  .message:hover, .message.selected, .message:focus-within { background: var(--hover); }
  .avatar { grid-column: 1; margin-top: 0.1rem; }
  .gutter { grid-column: 1; align-self: start; font-size: 0.68rem; color: var(--ink-muted); text-align: right; padding-top: 0.2rem; visibility: hidden; white-space: nowrap; }
  .message:hover .gutter, .message.selected .gutter { visibility: visible; }
  .body { grid-column: 2; min-width: 0; }
  .meta { display: flex; gap: 0.5rem; align-items: baseline; flex-wrap: wrap; }
  .author { font-weight: 600; }
  /* A role's colour as chosen; lightened on the dark theme, where dark role colours would not read. */
  .author.coloured { color: var(--role); }
  @media (prefers-color-scheme: dark) { .author.coloured { color: color-mix(in oklab, var(--role), white 45%); } }
  .meta time { font-size: 0.75rem; color: var(--ink-muted); }
  .content { white-space: pre-wrap; overflow-wrap: anywhere; }
  .edited { font-size: 0.72rem; }
  .pinned { font-size: 0.75rem; display: flex; gap: 0.25rem; align-items: center; }
  .reply-to { font-size: 0.82rem; display: flex; gap: 0.35rem; align-items: center; min-width: 0; margin-bottom: 0.1rem; }
  .reply-to .snippet { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
  .divider { display: flex; align-items: center; gap: 0.5rem; margin: 1rem 1rem 0.25rem; font-size: 0.72rem; font-weight: 600; color: var(--ink-muted); }
  .divider::before, .divider::after { content: ''; flex: 1; border-top: 1px solid var(--line); }
  /* The words in --danger: --dnd's red is too light for small text on the dark theme. */
  .divider.new { color: var(--danger); }
  .divider.new::before, .divider.new::after { border-color: var(--dnd); }
  .actions {
    position: absolute; right: 1rem; top: -0.9rem; display: none; gap: 0.1rem; padding: 0.15rem;
    background: var(--paper); border: 1px solid var(--line); border-radius: 6px; box-shadow: 0 2px 6px rgb(0 0 0 / 0.12); z-index: 1;
  }
  .message:hover .actions, .message:focus-within .actions, .message.selected .actions { display: flex; }
  .actions button { min-height: 1.9rem; width: 1.9rem; padding: 0; display: grid; place-items: center; color: var(--ink-muted); }
  .actions button:hover { color: var(--ink); background: var(--hover); }
  .actions button.danger:hover { color: var(--danger); }
  .edit textarea { width: 100%; min-width: 0; min-height: 2.4rem; field-sizing: content; max-height: 40vh; resize: none; overflow-wrap: anywhere; }
  .hint { font-size: 0.75rem; }
  button.link { background: none; border: none; padding: 0; min-height: 0; color: var(--link); cursor: pointer; }
  .confirm { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; margin: 0.35rem 0; padding: 0.4rem 0.6rem; border-radius: 6px; background: var(--warn-bg); color: var(--warn-ink); }
  .confirm button { min-height: 1.75rem; padding: 0.1rem 0.6rem; }
  @media (max-width: 760px) {
    .message { padding-left: 0.75rem; padding-right: 0.75rem; column-gap: 0.65rem; }
    .actions { right: 0.5rem; }
  }
`;
