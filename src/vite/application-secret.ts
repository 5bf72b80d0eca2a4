/**
 * The plugin's side of the client secret when the sandbox runs on a platform server: the host
 * page, which phones and teammates on the network may open, never holds the secret; once the
 * page has made (or found) the application, it asks here, and the plugin sets the secret it
 * holds on the server's application from this process (`PATCH /sandbox/applications/{id}`,
 * with the deployed server's control secret when there is one). The answer never carries it.
 */
import { CONTROL_SECRET_HEADER } from '../wire/paths';
import { APPLICATION_SECRET_PATH } from './options';
import { readBody, sendJson } from './relay-http';
import type { Middleware } from './sandbox-server';

const SNOWFLAKE = /^\d{1,20}$/;

/**
 * Answers `POST /__platformpp/application-secret {application_id}`: 204 once the server's
 * application has the developer's secret; 400 naming the field for a bad body.
 * @example server.middlewares.use(applicationSecretRelay(() => serverUrl, secret, controlSecret));
 */
export function applicationSecretRelay(
  serverUrl: () => Promise<string>,
  clientSecret: string,
  controlSecret: string | null,
): Middleware {
  return (req, res, next) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== APPLICATION_SECRET_PATH) return next();
    if (req.method !== 'POST') return sendJson(res, 405, { code: 0, message: '405: Method Not Allowed' });
    void (async () => {
      let body: { application_id?: unknown } | null = null;
      try {
        body = JSON.parse((await readBody(req)).toString('utf8'));
      } catch {
        // Answered below.
      }
      const id = body?.application_id;
      if (typeof id !== 'string' || !SNOWFLAKE.test(id))
        return sendJson(res, 400, {
          code: 50035,
          message: 'Invalid Form Body',
          errors: { application_id: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'Value is not snowflake.' }] } },
        });
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (controlSecret !== null) headers[CONTROL_SECRET_HEADER] = controlSecret;
      let answer: Response;
      try {
        answer = await fetch(`${await serverUrl()}/sandbox/applications/${id}`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({ client_secret: clientSecret }),
        });
      } catch (error) {
        return sendJson(res, 502, {
          code: 0,
          message: `The platform server could not be reached: ${(error as Error).message}`,
        });
      }
      if (answer.ok) {
        res.writeHead(204, { 'Cache-Control': 'no-store' });
        return void res.end();
      }
      // The server's refusal (an unknown application), without echoing what was sent.
      sendJson(res, answer.status, { code: 0, message: `The platform server answered ${answer.status}.` });
    })().catch(next);
  };
}
