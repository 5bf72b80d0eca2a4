/**
 * The hooks the repository's tests reach a sandbox's internals by, so that one suite runs on
 * both hosts (`PLATFORMPP_HOST=server`): a test on the browser host reads and changes the app's
 * store directly; on the server it sends the same store call here. Served only when the
 * Worker's `PLATFORMPP_TEST_HOOKS` binding is `"true"`, which only the test harness sets
 * (`startServer({ testHooks: true })`): never by `platformpp-web serve`, never in a deployment.
 *
 * - `POST <sandbox>/__platformpp-test/store` `{method, args}`: one call of the platform storage
 *   (`get`, `getAll`, `count`, `put`, `delete`...) through the sandbox's own context, so its
 *   read cache sees what a test writes, as the browser host's does; `putAll(store, records)`
 *   writes many records in one transaction. Arguments and result travel in the SQLite adapter's
 *   value codec (Blobs, CryptoKeys and all).
 * - `POST <sandbox>/__platformpp-test/settle`: resolves once the gateway sent every dispatch
 *   committed so far and the webhook outbox is idle.
 * - `POST <sandbox>/__platformpp-test/incarnation`: `{incarnation}`, the id of this start of the
 *   sandbox, which changes when its object was evicted and started again.
 */
import type { PlatformDB, PlatformStorage, PlatformStoreName } from '../src/store/schema';
import { decodeValue, encodeValue } from '../src/store/sqlite/value-codec';
import type { SandboxPlatform } from './sandbox-platform';

/** Where the hooks live inside a sandbox. */
export const TEST_HOOKS_PATH = '/__platformpp-test';

/** The storage calls a test may make. */
const STORE_METHODS = new Set([
  'get',
  'getAll',
  'getKey',
  'getAllKeys',
  'count',
  'getFromIndex',
  'getAllFromIndex',
  'getKeyFromIndex',
  'getAllKeysFromIndex',
  'countFromIndex',
  'put',
  'add',
  'delete',
  'latestSeq',
] as const);

/** A storage call as a test sends it. */
export interface StoreCall {
  method: string;
  args: unknown[];
}

/** Whether `path` (inside a sandbox) is one of the hooks. */
export function isTestHookPath(path: string): boolean {
  return path === TEST_HOOKS_PATH || path.startsWith(`${TEST_HOOKS_PATH}/`);
}

/** Answers a hook request of `platform`. */
export async function answerTestHook(platform: SandboxPlatform, request: Request, path: string): Promise<Response> {
  if (request.method !== 'POST') return new Response(null, { status: 405 });
  if (path === `${TEST_HOOKS_PATH}/settle`) {
    await platform.gateway.pump();
    await platform.app.webhooks.settled();
    return new Response(null, { status: 204 });
  }
  if (path === `${TEST_HOOKS_PATH}/incarnation`) return Response.json({ incarnation: platform.incarnation });
  if (path !== `${TEST_HOOKS_PATH}/store`) return new Response(null, { status: 404 });
  const call = (await decodeValue(await request.text())) as StoreCall;
  if (!STORE_METHODS.has(call.method as never) && call.method !== 'putAll') {
    return Response.json({ message: `${call.method} is no storage call` }, { status: 400 });
  }
  const db = platform.ctx.db as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  try {
    const result =
      call.method === 'putAll'
        ? await putAll(platform.ctx.db, call.args[0] as PlatformStoreName, call.args[1] as unknown[])
        : await db[call.method](...call.args);
    // `{result}`: an undefined result (nothing found) leaves the object empty.
    return new Response(await encodeValue({ result }), {
      headers: { 'Content-Type': 'application/json' },
    });
  } catch (error) {
    // The store's own refusal (a constraint, a DataCloneError) is what the test asserts on.
    const named = error as { name?: string; message?: string };
    return Response.json(
      { error: { name: named.name ?? 'Error', message: named.message ?? String(error) } },
      { status: 409 },
    );
  }
}

/** Writes `records` into `store` in one transaction (a test's bulk fixture). */
export async function putAll(db: PlatformStorage, store: PlatformStoreName, records: unknown[]): Promise<void> {
  await db.write([store], async (tx) => {
    for (const record of records) await tx.store(store).put(record as never);
  });
}

/** The platform storage as the hooks reach it, typed as the storage types it, and `putAll`. */
export type HookedStorage = Pick<
  PlatformStorage,
  (typeof STORE_METHODS extends Set<infer M> ? M : never) & keyof PlatformStorage
> & {
  putAll<N extends PlatformStoreName>(store: N, records: PlatformDB[N]['value'][]): Promise<void>;
};
