/**
 * The one Chromium every browser test uses (Debian's, found by `scripts/ensure-chromium.js`)
 * and the flags it runs with on a small CI machine.
 */

/** Where Chromium is: `$CHROMIUM_PATH`, else Debian's package. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/** No sandbox (CI runs as root), no GPU, and none of the background traffic a test never needs. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
