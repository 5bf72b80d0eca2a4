/**
 * The sandbox's model of a guild's message search index: indexing starts with the guild's first
 * message and the index is ready a fixed time later (`MESSAGE_SEARCH_INDEX_DELAY_MS`, by the
 * platform clock). A guild that never had a message has no index. The sandbox can make an index
 * ready at once (`POST /sandbox/guilds/{id}/index`).
 */
import { write, type WriteTx } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { MESSAGE_SEARCH_INDEX_DELAY_MS } from '../core/limits';
import type { SearchIndexRecord } from '../../store/records/messages';

/** Inside a message write: starts indexing the guild at its first message. */
export async function noteGuildMessage(tx: WriteTx, guildId: string, now: number): Promise<void> {
  const store = tx.store('message_search_indexes');
  if (!(await store.get(guildId)))
    await store.put({ guild_id: guildId, ready_at: now + MESSAGE_SEARCH_INDEX_DELAY_MS });
}

/** True when the guild's index is ready at `now`. */
export function isIndexReady(record: SearchIndexRecord | undefined, now: number): boolean {
  return record !== undefined && record.ready_at <= now;
}

/**
 * Makes a guild's index ready now (sandbox).
 * @example await forceSearchIndex(ctx, guildId);
 */
export async function forceSearchIndex(ctx: PlatformContext, guildId: string): Promise<SearchIndexRecord> {
  return write(ctx, ['guilds', 'message_search_indexes'], async (tx) => {
    if (!(await tx.store('guilds').get(guildId))) throw ApiError.of('UNKNOWN_GUILD');
    const record = { guild_id: guildId, ready_at: ctx.clock.now() };
    await tx.store('message_search_indexes').put(record);
    return record;
  });
}
