/**
 * Where the keyboard is in a page (through shadow roots, and whether it went into an activity's
 * frame) and whether that element shows a focus ring the eye can see.
 */
import type { Page } from 'playwright-core';

/** The focused element: its tag, text and label, the start of its markup, and whether it is an activity's frame. */
export interface Focused {
  tag: string;
  text: string;
  label: string | null;
  /** The first 80 characters of its markup: enough to tell the page's controls apart. */
  html: string;
  /** True when the focus is inside an activity's iframe. */
  inActivity: boolean;
}

/** The element the keyboard is on, through the shadow roots. */
export function focusedElement(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    let element = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    const inActivity = element?.tagName === 'IFRAME';
    const isBody = !element || element === document.body;
    return {
      tag: element?.tagName.toLowerCase() ?? '',
      text: element?.textContent?.trim() ?? '',
      label: element?.getAttribute('aria-label') ?? element?.getAttribute('placeholder') ?? null,
      html: isBody || inActivity ? '' : (element?.outerHTML.slice(0, 80) ?? ''),
      inActivity,
    };
  });
}

/**
 * Whether the focused element (through the shadow roots) matches `:focus-visible` and a ring
 * shows: an outline of some width that is not transparent, or a box shadow, on the element or
 * on the box around it that draws its ring (a message box whose field has none of its own).
 */
export function focusRing(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    let element = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    if (!element || !element.matches(':focus-visible')) return false;
    const rings = (el: Element) => {
      const style = getComputedStyle(el);
      const outline =
        style.outlineStyle !== 'none' &&
        Number.parseFloat(style.outlineWidth) >= 1 &&
        !/rgba\(.*, 0\)$|transparent/.test(style.outlineColor);
      return outline || style.boxShadow !== 'none';
    };
    let box: Element | null = element;
    for (let depth = 0; box && depth < 4; depth++, box = box.parentElement) if (rings(box)) return true;
    return false;
  });
}
