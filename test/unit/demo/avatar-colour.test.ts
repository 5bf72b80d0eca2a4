// @vitest-environment node
/**
 * Issue 30, item 6: each user's avatar colour is stable (a pure function of the user id) and
 * its initials, in white, read at WCAG AA's 4.5:1 on every colour of the palette.
 */
import { describe, expect, it, vi } from 'vitest';
import { AVATAR_COLOURS, avatarColour } from '../../../demo/shell/styles';

/** WCAG 2.1's relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.1's contrast ratio of two colours. */
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

/** Snowflakes made one after another, as the seed makes its users. */
const ids = Array.from({ length: 64 }, (_, n) => String(1576025436264206336n + (BigInt(n) << 12n)));

describe('avatar colours', () => {
  it('white initials read at 4.5:1 or more on every avatar colour (WCAG 2.1 AA, 1.4.3)', () => {
    for (const colour of AVATAR_COLOURS) expect(contrast('#ffffff', colour), colour).toBeGreaterThanOrEqual(4.5);
  });

  it('a user keeps one colour: the same id gives the same colour on every call and in a freshly loaded page', async () => {
    const first = ids.map(avatarColour);
    expect(ids.map(avatarColour)).toEqual(first);
    vi.resetModules();
    const fresh = await import('../../../demo/shell/styles');
    expect(ids.map(fresh.avatarColour)).toEqual(first);
    for (const colour of first) expect(AVATAR_COLOURS).toContain(colour);
  });

  it('users made one after another get different colours, most of the palette for a few of them', () => {
    // Three users in a row (alice, bob, chen in the seed) are told apart by colour.
    expect(new Set(ids.slice(0, 3).map(avatarColour)).size).toBe(3);
    expect(new Set(ids.map(avatarColour)).size).toBe(AVATAR_COLOURS.length);
  });
});
