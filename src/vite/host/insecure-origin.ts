/**
 * What the host page says when the browser gives it no service worker: an origin that is not a
 * secure context (`http://<the laptop's LAN address>:5173` on a phone). In one browser without a
 * server the platform's HTTP API and the activity's `/.proxy/` requests are answered by a service
 * worker, so there the sandbox cannot run; on a platform server (`platformpp({ server })`) the
 * dev server answers them from the server instead, and the page says what works there and what
 * does not.
 */
import { SANDBOX_BASE } from '../options';

/**
 * The explanation for this page, or null when it is a secure context (or has service workers).
 * @example const problem = insecureOriginProblem(window);
 */
export function insecureOriginProblem(scope: {
  isSecureContext: boolean;
  location: { host: string; port: string };
  navigator: { serviceWorker?: unknown };
}): string | null {
  if (scope.isSecureContext && scope.navigator.serviceWorker) return null;
  const port = scope.location.port || '5173';
  return (
    `This page (http://${scope.location.host}) is not a secure context, so the browser gives it no service worker: ` +
    "the platform's HTTP API, the activity's /.proxy/ requests and offline use all depend on one, and do not work here. " +
    `Make it a localhost page: on an Android phone on USB run "adb reverse tcp:${port} tcp:${port}" on the laptop and open ` +
    `http://localhost:${port}${SANDBOX_BASE}?as=bob on the phone; or serve the dev server over a tunnel with a trusted HTTPS ` +
    'certificate (a self-signed one does not give a service worker).'
  );
}

/** The one line a page without a service worker on a platform server shows, its details folded under it. */
export const WITHOUT_SERVICE_WORKER_SUMMARY =
  'Not a secure context, so no service worker: the activity runs on the platform server; offline use, https://discord.com/api and voice do not work here.';

/**
 * What a page without a service worker says when it runs on a platform server through the dev
 * server: what works there, what does not, and how to have everything.
 * @example withoutServiceWorkerNotice({ host: '192.168.1.20:5173', port: '5173' })
 */
export function withoutServiceWorkerNotice(location: { host: string; port: string }): string {
  const port = location.port || '5173';
  return (
    `This page (http://${location.host}) is not a secure context, so the browser gives it no service worker. ` +
    "It runs on the platform server through the dev server: the activity and its RPC (in this page), the consent dialog, the platform's API at /.proxy/api/..., " +
    "the activity's URL mappings under /.proxy/ (sent from the dev server's machine), the gateway, and the activity instance shared with the other devices work here. " +
    'What does not work here: offline use (nothing of the platform is kept in this browser: no service worker); requests to https://discord.com/api/... and https://cdn.discordapp.com/... ' +
    '(nothing intercepts them: they go to the real platform, so call /.proxy/api/... instead); URL mappings without /.proxy; voice (the microphone and end-to-end encryption need a secure context). ' +
    `For all of it, make it a localhost page: on an Android phone on USB run "adb reverse tcp:${port} tcp:${port}" on the laptop and open http://localhost:${port}${SANDBOX_BASE}?as=bob on the phone.`
  );
}
