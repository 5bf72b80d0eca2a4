// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { Client } from '../../../src/sdk/client';
import { ErrorType, SdkError } from '../../../src/sdk/errors';
import { AuthorizationTokenType } from '../../../src/sdk/types';

/** A fetch that answers after `ms`, or never; `respectSignal` says whether it stops on abort. */
function slowFetch(ms: number | null, respectSignal: boolean) {
  const seen: Request[] = [];
  const fetch = (request: Request) => {
    seen.push(request);
    return new Promise<Response>((resolve, reject) => {
      if (ms !== null)
        setTimeout(
          () => resolve(new Response('{"id":"1","application_id":"1","metadata":null,"members":[]}', { status: 200 })),
          ms,
        );
      if (respectSignal) request.signal.addEventListener('abort', () => reject(request.signal.reason));
    });
  };
  return { fetch, seen };
}

async function rejection(promise: Promise<unknown>): Promise<SdkError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SdkError);
  return error as SdkError;
}

describe('SDK HTTP request timeout (SetHttpRequestTimeout; default 30000 ms)', () => {
  it('a request past the timeout fails with a timeout error, and the request is aborted', async () => {
    const { fetch, seen } = slowFetch(null, true);
    const client = new Client({ baseUrl: 'http://platform.test', fetch });
    await client.updateToken(AuthorizationTokenType.Bearer, 'a'.repeat(40));
    client.setHttpRequestTimeout(30);
    const started = Date.now();
    const error = await rejection(client.createOrJoinLobby('slow'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(error).toMatchObject({ type: ErrorType.NetworkError, timedOut: true, retryable: true });
    expect(error.message).toBe('PUT /api/v10/lobbies timed out after 30 ms (setHttpRequestTimeout).');
    expect(seen[0].signal.aborted).toBe(true);
  });

  it('a fetch that ignores its abort signal still ends at the timeout', async () => {
    const { fetch } = slowFetch(null, false);
    const client = new Client({ baseUrl: 'http://platform.test', fetch });
    await client.updateToken(AuthorizationTokenType.Bearer, 'a'.repeat(40));
    client.setHttpRequestTimeout(20);
    expect((await rejection(client.createOrJoinLobby('slow'))).timedOut).toBe(true);
  });

  it('a body that never ends is a timeout error too (SdkError with timedOut), not a raw abort', async () => {
    for (const respectSignal of [true, false]) {
      const fetch = async (request: Request) => {
        // The headers arrive at once; the body sends one byte and then stalls for ever.
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{'));
            if (respectSignal) request.signal.addEventListener('abort', () => controller.error(request.signal.reason));
          },
        });
        return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
      };
      const client = new Client({ baseUrl: 'http://platform.test', fetch });
      await client.updateToken(AuthorizationTokenType.Bearer, 'a'.repeat(40));
      client.setHttpRequestTimeout(30);
      const error = await rejection(client.createOrJoinLobby('stalled'));
      expect(error).toMatchObject({ type: ErrorType.NetworkError, timedOut: true, retryable: true });
      expect(error.message).toBe('PUT /api/v10/lobbies timed out after 30 ms (setHttpRequestTimeout).');
    }
  });

  it('a request answered within the timeout succeeds', async () => {
    const { fetch } = slowFetch(10, true);
    const client = new Client({ baseUrl: 'http://platform.test', fetch });
    await client.updateToken(AuthorizationTokenType.Bearer, 'a'.repeat(40));
    client.setHttpRequestTimeout(2000);
    expect((await client.createOrJoinLobby('fast')).id).toBe('1');
  });

  it('a fetch that fails outright is a NetworkError that is not a timeout', async () => {
    const client = new Client({
      baseUrl: 'http://platform.test',
      fetch: async () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await client.updateToken(AuthorizationTokenType.Bearer, 'a'.repeat(40));
    const error = await rejection(client.createOrJoinLobby('x'));
    expect(error).toMatchObject({ type: ErrorType.NetworkError, timedOut: false });
    expect(error.message).toMatch(/got no answer: Failed to fetch/);
  });

  it('a 429 is retryable and carries retry_after', async () => {
    const body = JSON.stringify({ message: 'You are being rate limited.', retry_after: 1.5, global: false });
    const client = new Client({
      baseUrl: 'http://platform.test',
      fetch: async () => new Response(body, { status: 429, headers: { 'Retry-After': '2' } }),
    });
    await client.updateToken(AuthorizationTokenType.Bearer, 'a'.repeat(40));
    const error = await rejection(client.createOrJoinLobby('x'));
    expect(error).toMatchObject({ type: ErrorType.HTTPError, status: 429, retryable: true, retryAfter: 1.5 });
  });
});
