// @ts-check
/**
 * Cold start of the platform: the time from the start of the navigation to `<pp-platform>`'s
 * `pp-status` event saying `ready` (or `offline`), on `performance.now()`'s clock.
 */
import { definePlatformElement } from '../../../../src/components/platform-element';

document.addEventListener('pp-status', (event) => {
  const { status, error } = /** @type {CustomEvent<{ status: string, error: string | null }>} */ (event).detail;
  if (status === 'ready' || status === 'offline') document.documentElement.dataset.ready = String(performance.now());
  else if (status === 'error') document.documentElement.dataset.ready = `error: ${error}`;
});
definePlatformElement();
