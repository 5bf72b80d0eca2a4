/**
 * What the HTTP app keeps of the requests that changed something, so that a request the browser
 * dispatches again to a restarted service worker, or a client retries with the same
 * `Idempotency-Key`, is not applied twice (`sw/idempotency.ts`).
 */

/** One request that committed a write, with the answer it got once that was ready. */
export interface RequestRecord {
  /** `key:<Idempotency-Key>` for a key the client sent, else `auto:<fingerprint>`. */
  key: string;
  /** SHA-256 (hex) of the client, method, URL and body: what a repeat must match. */
  hash: string;
  /** The start of the service worker that applied it (a random id), and when (platform clock, epoch ms). */
  instance: string;
  at: number;
  /** The answer, once the request's handler produced it; absent when the worker stopped first. */
  response?: { status: number; headers: [string, string][]; body: string };
}
