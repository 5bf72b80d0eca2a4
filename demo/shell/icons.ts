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
