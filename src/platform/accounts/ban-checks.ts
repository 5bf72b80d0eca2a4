/**
 * Whether a platform ban holds (spec, "Linked game account after a ban"). A banned account
 * gets no new credential of any kind while its ban holds: no authorization code, no token from
 * a code, a refresh or a child-token exchange, and a token that somehow exists authenticates
 * nothing. A ban holds from `POST /sandbox/users/{id}/ban` until it is lifted (never, when
 * permanent). The replacement provisional account a ban creates is another user: no ban holds
 * for it.
 */

/** The `bans` store of the transaction a check belongs to. */
export interface BanStore {
  getKey(key: string): Promise<unknown>;
}

/**
 * True while `userId` is banned, read from `bans` inside the transaction whose write it
 * guards, so the answer belongs to the same snapshot.
 * @example if (await banHolds(tx.store('bans'), code.user_id)) throw invalidCode();
 */
export async function banHolds(bans: BanStore, userId: string): Promise<boolean> {
  return (await bans.getKey(userId)) !== undefined;
}
