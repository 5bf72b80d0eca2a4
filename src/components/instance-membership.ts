/**
 * A frame's membership of its activity instance, in whichever directory keeps instances (the
 * hub's registry, or the page's own). It joins as this page's owner, so that the hub lets go
 * of it when the page dies; and after the hub restarted it joins the new hub's registry again
 * with the instance id it had, so the activity, which already runs with that id, keeps it.
 */
import * as Comlink from 'comlink';
import { pageOwner } from '../sockets/hub-link';
import type { InstanceDirectory, InstanceJoin, InstanceSnapshot, ParticipantsListener } from '../rpc/instances';

/** What a frame says when it joins, less what the membership adds itself. */
export type MembershipRequest = Omit<InstanceJoin, 'owner' | 'instance_id'>;

/**
 * One frame's membership.
 * @example
 * const membership = new InstanceMembership(() => platform.hub.instances, request, (s) => host.participantsChanged(s.participants));
 * const instance = await membership.join();
 * platform.addEventListener('pp-hub-restart', () => membership.rejoin());
 */
export class InstanceMembership {
  /** The instance as last heard of, once joined. */
  snapshot: InstanceSnapshot | null = null;
  #directory: InstanceDirectory | null = null;
  #left = false;
  readonly #listener: ParticipantsListener;

  /**
   * @param directory where instances are kept now (read again on a rejoin: a restarted hub is a new one).
   * @param onChange hears every later change of the instance's participants.
   */
  constructor(
    private readonly directory: () => InstanceDirectory,
    private readonly request: MembershipRequest,
    private readonly onChange: (snapshot: InstanceSnapshot) => void,
  ) {
    this.#listener = Comlink.proxy((snapshot: InstanceSnapshot) => {
      this.snapshot = snapshot;
      this.onChange(snapshot);
    });
  }

  /** Joins the instance of the frame's application and channel. */
  async join(): Promise<InstanceSnapshot> {
    const directory = this.directory();
    const snapshot = await directory.join({ ...this.request, owner: await pageOwner() }, this.#listener);
    this.#directory = directory;
    this.snapshot = snapshot;
    return snapshot;
  }

  /**
   * Joins again after the hub restarted, naming the instance the frame is in. Resolves false
   * when that instance could not be kept (another one runs there already): the frame must then
   * start its activity afresh. A change of participants meanwhile reaches `onChange`.
   */
  async rejoin(): Promise<boolean> {
    const before = this.snapshot;
    if (!before || this.#left) return true;
    const directory = this.directory();
    const snapshot = await directory.join(
      { ...this.request, owner: await pageOwner(), instance_id: before.instance_id },
      this.#listener,
    );
    // The frame stopped while the hub answered: leave what was just joined.
    if (this.#left) {
      void Promise.resolve(directory.leave(this.request.frame_id)).catch(() => undefined);
      return true;
    }
    this.#directory = directory;
    if (snapshot.instance_id !== before.instance_id) return false;
    this.snapshot = snapshot;
    if (participantIds(snapshot) !== participantIds(before)) this.onChange(snapshot);
    return true;
  }

  /** Leaves the instance (nothing is awaited: a hub that is gone never answers). */
  leave(): void {
    this.#left = true;
    if (this.#directory) void Promise.resolve(this.#directory.leave(this.request.frame_id)).catch(() => undefined);
    this.#directory = null;
  }
}

function participantIds(snapshot: InstanceSnapshot): string {
  return snapshot.participants.map((p) => p.id).join(',');
}
