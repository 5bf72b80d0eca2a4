/**
 * The service worker's answers on the server-join wire (`src/wire/server-join.ts`): a page
 * joins a server (checked first: the worker asks the server for its gateway), names the
 * activity frames that use its choice, and a frame asks what it uses.
 */
import type { JoinedServer, ServerJoinMessage, ServerJoinReply } from '../src/wire/server-join';
import type { ServerClients } from './server-clients';
import { probeServer } from './server-forward';

/** What answering needs from the worker. */
export interface ServerJoinContext {
  servers: ServerClients;
  /** The ids of every client that still exists (to forget the others' choices). */
  liveClients(): Promise<ReadonlySet<string>>;
  /** Checks a server and finds its gateway (default: {@link probeServer}). */
  probe?: (server: string) => Promise<JoinedServer>;
}

/**
 * The answer to `message` from the client `clientId`; never rejects (a failure is an answer).
 * @example port.postMessage(await answerServerJoin(event.data, client.id, context));
 */
export async function answerServerJoin(
  message: ServerJoinMessage,
  clientId: string,
  context: ServerJoinContext,
): Promise<ServerJoinReply> {
  const { servers } = context;
  try {
    switch (message.type) {
      case 'platformpp:join-server': {
        const server = message.server === null ? null : await (context.probe ?? probeServer)(message.server);
        await servers.join(clientId, server, await context.liveClients());
        return { ok: true, server };
      }
      case 'platformpp:frame-server':
        await servers.adoptFrame(message.frame_id, clientId);
        return { ok: true, server: await servers.serverOf(clientId) };
      case 'platformpp:which-server':
        return { ok: true, server: await servers.serverOf(clientId) };
    }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
