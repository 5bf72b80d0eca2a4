/**
 * What the host page says when the browser gives it no service worker: an origin that is not a
 * secure context (`http://<the laptop's LAN address>:5173` on a phone). The platform's HTTP API
 * in the page and the activity's `/.proxy/` requests are answered by a service worker, so there
 * the sandbox cannot run; the words say what to do instead.
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
