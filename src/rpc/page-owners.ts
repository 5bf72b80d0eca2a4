/**
 * The pages (owners) the hub serves, and what each of them holds there: activity memberships,
 * gateway connections. A MessagePort tells neither end reliably that the other is gone (a page
 * that crashed or was killed never says goodbye, and `pagehide` may never run), so the hub
 * watches each page through a Web Lock the page holds for as long as it lives: the hub asks for
 * the same lock and is granted it only once the page is gone. Then everything the page held is
 * let go, as if it had left: the other participants hear of it, its sessions stay resumable.
 *
 * Pure: how to wait for a page to go is passed in (`navigator.locks` in the hub, a promise in
 * a unit test).
 */

/** Resolves once the page `owner` is gone. */
export type OwnerGone = (owner: string) => Promise<unknown>;

/**
 * Pages by owner id and what each holds.
 * @example
 * const owners = new PageOwners((owner) => navigator.locks.request(ownerLockName(owner), () => undefined), (owner) => instances.leaveOwner(owner));
 * const release = owners.hold(owner, () => connection.clientClosed(1006));
 */
export class PageOwners {
  readonly #watched = new Set<string>();
  readonly #holdings = new Map<string, Set<() => void>>();

  /**
   * @param gone resolves once a page is gone.
   * @param onGone runs first for every page that went away (e.g. `instances.leaveOwner`).
   */
  constructor(
    private readonly gone: OwnerGone,
    private readonly onGone: (owner: string) => void = () => undefined,
  ) {}

  /** Starts watching `owner` (once at a time); when it is gone, everything it held is let go. */
  watch(owner: string): void {
    if (this.#watched.has(owner)) return;
    this.#watched.add(owner);
    this.gone(owner).then(
      () => this.#end(owner),
      // Nobody can tell whether it lives: watch again on its next call rather than guess.
      () => this.#watched.delete(owner),
    );
  }

  /**
   * Runs `release` when `owner` goes away; returns the function that cancels it (the holding
   * ended normally, e.g. the connection was closed).
   */
  hold(owner: string, release: () => void): () => void {
    this.watch(owner);
    let held = this.#holdings.get(owner);
    if (!held) this.#holdings.set(owner, (held = new Set()));
    held.add(release);
    return () => {
      held.delete(release);
      if (held.size === 0 && this.#holdings.get(owner) === held) this.#holdings.delete(owner);
    };
  }

  /** True while `owner` is watched (it has not been seen to go). */
  watching(owner: string): boolean {
    return this.#watched.has(owner);
  }

  #end(owner: string): void {
    this.#watched.delete(owner);
    const held = this.#holdings.get(owner);
    this.#holdings.delete(owner);
    this.onGone(owner);
    for (const release of held ?? []) {
      try {
        release();
      } catch {
        // One holding that cannot be let go must not keep the others.
      }
    }
  }
}
