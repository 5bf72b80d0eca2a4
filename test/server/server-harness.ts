/**
 * The server under test: the Worker built once by `global-setup.ts`, started by a test file
 * through Miniflare on a free loopback port, and a fresh sandbox of it per test, so tests share
 * nothing but the process.
 */
import { inject } from 'vitest';
import { type ServerOptions, startServer } from '../../server/start.js';

/** A started server. */
export type TestServer = Awaited<ReturnType<typeof startServer>>;

/** Starts a server of the built Worker on a free port. */
export function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  return startServer({ port: 0, workerPath: inject('serverWorkerPath'), ...options });
}

let counter = 0;

/** The URL of a new, empty sandbox of the server at `url` (`http://127.0.0.1:port/s/<name>`). */
export function freshSandbox(url: string): string {
  return `${url}/s/t${process.pid}-${Date.now().toString(36)}-${++counter}`;
}

/** JSON requests to one sandbox, as a client program sends them. */
export function sandboxClient(base: string) {
  const request = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    }
    const response = await fetch(base + path, init);
    const text = await response.text();
    let parsed: any = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON: the text.
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };
  return {
    base,
    request,
    get: (path: string, token?: string) => request('GET', path, undefined, token ? { Authorization: token } : {}),
    post: (path: string, body?: unknown, token?: string) =>
      request('POST', path, body, token ? { Authorization: token } : {}),
    put: (path: string, body?: unknown, token?: string) =>
      request('PUT', path, body, token ? { Authorization: token } : {}),
  };
}
