/**
 * The shell's icons as inline SVG (no icon font, no emoji font needed: they render the same
 * everywhere, offline). Decorative: each is hidden from assistive technology, the text next to
 * it says what it means.
 */
import { svg, type SVGTemplateResult } from 'lit';

/** The icons by name. */
const PATHS = {
  text: svg`<path d="M9 3 7 21M17 3l-2 18M4 8.5h17M3 15.5h17" />`,
  lock: svg`<rect x="5" y="11" width="14" height="10" rx="2" /><path d="M8 11V7a4 4 0 0 1 8 0v4" />`,
  voice: svg`<path d="M4 9.5v5h4l5 4v-13l-5 4H4Z" /><path d="M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12" />`,
  lobby: svg`<path d="M4 5h16v11H9l-5 4V5Z" />`,
  bot: svg`<rect x="4" y="8" width="16" height="12" rx="3" /><path d="M12 4v4M9 13h.01M15 13h.01M9 17h6" />`,
  tools: svg`<path d="M14.5 6.5a4 4 0 0 0 5 5L21 13l-8 8-2-2 1.5-1.5a4 4 0 0 0-5-5L3 13" /><path d="m3 3 7 7" />`,
  play: svg`<path d="M7 4v16l13-8L7 4Z" />`,
  reply: svg`<path d="M10 8 5 12.5 10 17" /><path d="M5.5 12.5H14a5 5 0 0 1 5 5V19" />`,
  edit: svg`<path d="M4 20h4L19 9l-4-4L4 16v4Z" /><path d="m13.5 6.5 4 4" />`,
  trash: svg`<path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />`,
  pin: svg`<path d="M9 4h6l-1 6 4 3v2H6v-2l4-3-1-6Z" /><path d="M12 15v6" />`,
  copy: svg`<rect x="8" y="8" width="12" height="12" rx="2" /><path d="M16 8V5a1 1 0 0 0-1-1H5a1 1 0 0 0-1 1v10a1 1 0 0 0 1 1h3" />`,
  id: svg`<rect x="3" y="5" width="18" height="14" rx="2" /><path d="M7 9v6M11 9h2a3 3 0 0 1 0 6h-2V9Z" />`,
  at: svg`<circle cx="12" cy="12" r="4" /><path d="M16 12v1.5a2.5 2.5 0 0 0 5 0V12a9 9 0 1 0-3.5 7.1" />`,
  info: svg`<circle cx="12" cy="12" r="9" /><path d="M12 11v6M12 7.5h.01" />`,
  close: svg`<path d="M6 6l12 12M18 6 6 18" />`,
  send: svg`<path d="M4 12 20 4l-6 16-3-7-7-1Z" />`,
  check: svg`<path d="m5 12.5 4.5 4.5L19 7" />`,
  users: svg`<circle cx="9" cy="8" r="3.5" /><path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14a6.5 6.5 0 0 1 3.5 6" />`,
  key: svg`<circle cx="8" cy="15" r="4" /><path d="m11 12 9-9M16 7l3 3M14 9l2 2" />`,
  mic: svg`<rect x="9" y="3" width="6" height="11" rx="3" /><path d="M5 11a7 7 0 0 0 14 0M12 18v3" />`,
  'mic-off': svg`<path d="M15 9.5V6a3 3 0 0 0-5.6-1.5M9 9v2a3 3 0 0 0 4.9 2.3" /><path d="M5 11a7 7 0 0 0 11.2 5.6M19 11a7 7 0 0 1-.6 2.8M12 18v3M3 3l18 18" />`,
  headphones: svg`<path d="M4 17v-5a8 8 0 0 1 16 0v5" /><rect x="3" y="14" width="4.5" height="7" rx="1.5" /><rect x="16.5" y="14" width="4.5" height="7" rx="1.5" />`,
  'headphones-off': svg`<path d="M4 17v-5a8 8 0 0 1 2.3-5.6M9.2 4.5A8 8 0 0 1 20 12v3" /><rect x="3" y="14" width="4.5" height="7" rx="1.5" /><path d="M16.5 16.5V20a1 1 0 0 0 1 1H20M3 3l18 18" />`,
  'phone-off': svg`<path d="M2.5 14.5C5 12 8.3 10.8 12 10.8s7 1.2 9.5 3.7l-1.8 2.6a1 1 0 0 1-1.2.4l-3-1.2a1 1 0 0 1-.6-.9v-2.1a11 11 0 0 0-5.8 0v2.1a1 1 0 0 1-.6.9l-3 1.2a1 1 0 0 1-1.2-.4Z" />`,
  signal: svg`<path d="M5 20v-3M10 20v-7M15 20V9M20 20V4" />`,
} as const;

/** An icon's name. */
export type IconName = keyof typeof PATHS;

/**
 * An icon, 1em square, in the current text colour.
 * @example html`${icon('lock')} staff-only`
 */
export function icon(name: IconName): SVGTemplateResult {
  return svg`<svg class="icon" viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${PATHS[name]}</svg>`;
}
