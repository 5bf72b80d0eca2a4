/**
 * The one Chromium every browser test uses (Debian's, found by `scripts/ensure-chromium.js`)
 * and the flags it runs with on a small CI machine.
 */

/** Where Chromium is: `$CHROMIUM_PATH`, else Debian's package. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/**
 * What voice calls need of a headless Chromium with no network but loopback: a fake microphone
 * (a beep) granted without a prompt, peer connections allowed over loopback with host
 * candidates that are IP addresses (mDNS names do not resolve offline), and audio that starts
 * without a user gesture (a test page has none).
 */
export const CHROMIUM_MEDIA_ARGS = [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
  '--autoplay-policy=no-user-gesture-required',
];

/** No sandbox (CI runs as root), no GPU, and none of the background traffic a test never needs. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  ...CHROMIUM_MEDIA_ARGS,
];
