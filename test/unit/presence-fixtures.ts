/**
 * A gateway session as the presence counts it, without a gateway: what the shared worker stores
 * when a session of the user identifies (src/gateway/session-presence.ts), for tests of the
 * service worker's side, where no gateway runs.
 */
import type { PlatformContext } from '../../src/platform/core/context';
import { type SessionStatus } from '../../src/store/records/presence';
import { applyPresence, PRESENCE_STORES } from '../../src/platform/presence/write';
import { write } from '../../src/store/write';

let sessions = 0;

/**
 * Marks a session of `userId` connected (online, unless `status` says otherwise); resolves to
 * its id.
 * @example await connectSession(client.app.ctx, world.alice.id);
 */
export async function connectSession(
  ctx: PlatformContext,
  userId: string,
  status: SessionStatus = 'online',
): Promise<string> {
  const sessionId = `test-session-${++sessions}`;
  const now = ctx.clock.now();
  await write(ctx, PRESENCE_STORES, (tx, emit) =>
    applyPresence(tx, emit, userId, now, (p) => ({
      ...p,
      sessions: [
        ...(p.sessions ?? []),
        {
          session_id: sessionId,
          application_id: '0',
          status,
          since: null,
          afk: false,
          gateway: 'test',
          updated_at: now,
        },
      ],
    })),
  );
  return sessionId;
}
