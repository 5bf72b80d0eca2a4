/**
 * What the conversation views share (lobby, channel, direct messages): a header bar with the
 * conversation's name, a line under it and an action at the right; an optional tip; the chat
 * filling the rest.
 */
import { css } from 'lit';

/** The conversation views' styles. */
export const viewStyles = css`
  :host { display: grid; grid-template-rows: auto auto minmax(0, 1fr); min-height: 0; height: 100%; background: var(--paper); }
  .view-head {
    display: grid; grid-template-columns: minmax(0, 1fr) auto; grid-template-areas: 'title action' 'sub action';
    column-gap: 0.75rem; align-items: center; min-height: 3.25rem; padding: 0.45rem 1rem; border-bottom: 1px solid var(--line);
    box-shadow: 0 1px 2px rgb(0 0 0 / 0.06);
  }
  .view-head h2 { grid-area: title; display: flex; gap: 0.45rem; align-items: center; font-size: 1rem; min-width: 0; }
  .view-head h2 span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .view-head h2 .icon { color: var(--ink-muted); }
  .view-head .sub { grid-area: sub; font-size: 0.8rem; display: flex; gap: 0.35rem 0.9rem; flex-wrap: wrap; align-items: center; min-width: 0; }
  .view-head .head-action { grid-area: action; }
  /* Fixed rows: a tip that is hidden (dismissed) leaves its row empty, the chat keeps the rest. */
  .view-head { grid-row: 1; }
  .tip { grid-row: 2; margin: 0.6rem 1rem 0; }
  .view-head ~ :not(.tip) { grid-row: 3; }
  .empty { padding: 1rem; }
  .intro-title { font-size: 1.35rem; text-transform: none; letter-spacing: 0; color: var(--ink); margin-bottom: 0.2rem; }
  @media (max-width: 760px) {
    .view-head { padding: 0.4rem 0.75rem; }
    .tip { margin: 0.5rem 0.5rem 0; }
  }
`;
