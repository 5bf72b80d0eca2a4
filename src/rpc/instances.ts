/**
 * The registry of activity instances: which frames run which application in which channel,
 * and who takes part. Frames of the same application and channel share one instance (CONTRACT
 * §5); the instance ends with its last frame. Pure and synchronous: the shared worker (the hub)
 * holds one registry for every page, so two pages agree on instance ids, and a page without
 * the hub can hold its own. The hub's registry lives in memory only: when the browser restarts
 * the hub, frames join the new one again naming the instance they were in (`instance_id`), so
 * the instance keeps its id while its activities run on.
 */
import type { RpcParticipant } from './protocol';
import { randomUuid } from '../wire/random-uuid';

/** What a frame says when it joins. */
export interface InstanceJoin {
  application_id: string;
  channel_id: string;
  guild_id: string | null;
  /** The frame's own id (the `frame_id` query parameter); one membership per frame. */
  frame_id: string;
  /** The simulated user running the frame. */
  user: RpcParticipant;
  /**
   * Who holds the membership (a page): when that page goes away,
   * {@link ActivityInstanceRegistry.leaveOwner} removes all of its frames at once.
   */
  owner?: string;
  /**
   * A rejoin: the instance the frame was in before the hub restarted. It is kept when no
   * instance runs for the application and channel yet and no other instance has that id;
   * otherwise the frame joins the running instance (whose id the answer carries).
   */
  instance_id?: string;
}

/** An instance as frames see it. */
export interface InstanceSnapshot {
  instance_id: string;
  application_id: string;
  channel_id: string;
  guild_id: string | null;
  /** Each user once, in the order they first joined. */
  participants: RpcParticipant[];
}

/** Called with the instance whenever its set of participants changes. */
export type ParticipantsListener = (snapshot: InstanceSnapshot) => void;

/**
 * A frame left (or its page went away). `last` is true when no other frame of that user runs
 * the application anywhere: what the frame's activity set for the user is theirs no more.
 */
export interface FrameLeft {
  frame_id: string;
  application_id: string;
  user_id: string;
  last: boolean;
}

/**
 * Where a frame keeps its membership: a registry in the page, or the hub's through comlink
 * (whose methods answer promises). `<pp-activity-frame>` takes either.
 */
export interface InstanceDirectory {
  join(request: InstanceJoin, listener?: ParticipantsListener): InstanceSnapshot | Promise<InstanceSnapshot>;
  leave(frameId: string): unknown;
}

interface Membership {
  frame_id: string;
  user: RpcParticipant;
  owner: string | undefined;
  listener: ParticipantsListener | undefined;
}

interface Instance {
  instance_id: string;
  application_id: string;
  channel_id: string;
  guild_id: string | null;
  /** In join order. */
  members: Membership[];
}

/** A fresh instance id: opaque, unique per instance. */
function randomInstanceId(): string {
  return `i-${randomUuid()}`;
}

/**
 * Activity instances keyed by application and channel.
 * @example
 * const registry = new ActivityInstanceRegistry();
 * const { instance_id } = registry.join({ application_id, channel_id, guild_id, frame_id, user }, (s) => show(s.participants));
 * registry.leave(frame_id);
 */
export class ActivityInstanceRegistry {
  readonly #byKey = new Map<string, Instance>();
  readonly #byFrame = new Map<string, Instance>();

  /**
   * @param newInstanceId mints the id of a new instance.
   * @param watchOwner hears the owner of every join, so the hub can watch that the page lives.
   * @param onFrameLeft hears every frame that left, after its instance's participants did.
   * @param onInstanceChange hears every instance whose participants changed, and every one that
   *   ended (the hub mirrors them into the store, where the HTTP API reads them).
   */
  constructor(
    private readonly newInstanceId: () => string = randomInstanceId,
    private readonly watchOwner: (owner: string) => void = () => undefined,
    private readonly onFrameLeft: (left: FrameLeft) => void = () => undefined,
    private readonly onInstanceChange: (instance: InstanceSnapshot, ended: boolean) => void = () => undefined,
  ) {}

  /**
   * Adds a frame to the instance of its application and channel (creating it for the first
   * frame) and returns the instance. `listener` hears every later change of participants.
   * Joining again with the same `frame_id` replaces the frame's earlier membership.
   */
  join(request: InstanceJoin, listener?: ParticipantsListener): InstanceSnapshot {
    if (request.owner !== undefined) this.watchOwner(request.owner);
    // A replaced membership is no leaving: the frame runs on.
    if (this.#byFrame.has(request.frame_id)) this.#remove(request.frame_id, false);
    const key = instanceKey(request.application_id, request.channel_id);
    let instance = this.#byKey.get(key);
    if (!instance) {
      const kept = request.instance_id;
      instance = {
        instance_id: kept !== undefined && !this.#instanceIdInUse(kept) ? kept : this.newInstanceId(),
        application_id: request.application_id,
        channel_id: request.channel_id,
        guild_id: request.guild_id,
        members: [],
      };
      this.#byKey.set(key, instance);
    }
    const before = participantIds(instance);
    instance.members.push({ frame_id: request.frame_id, user: { ...request.user }, owner: request.owner, listener });
    this.#byFrame.set(request.frame_id, instance);
    // The frame that joins learns the instance from the answer; the others hear of the change.
    if (participantIds(instance) !== before) {
      this.#notify(instance, request.frame_id);
      this.#changed(instance, false);
    }
    return snapshot(instance);
  }

  /** Removes a frame; returns its instance as it is afterwards, or null (unknown frame, or ended). */
  leave(frameId: string): InstanceSnapshot | null {
    return this.#remove(frameId, true);
  }

  #remove(frameId: string, leaving: boolean): InstanceSnapshot | null {
    const instance = this.#byFrame.get(frameId);
    if (!instance) return null;
    this.#byFrame.delete(frameId);
    const before = participantIds(instance);
    const userId = instance.members.find((m) => m.frame_id === frameId)!.user.id;
    instance.members = instance.members.filter((m) => m.frame_id !== frameId);
    const ended = instance.members.length === 0;
    if (ended) {
      this.#byKey.delete(instanceKey(instance.application_id, instance.channel_id));
      this.#changed(instance, true);
    } else if (participantIds(instance) !== before) {
      this.#notify(instance);
      this.#changed(instance, false);
    }
    if (leaving)
      this.#frameLeft({
        frame_id: frameId,
        application_id: instance.application_id,
        user_id: userId,
        last: !this.#runs(userId, instance.application_id),
      });
    return ended ? null : snapshot(instance);
  }

  /** Removes every frame `owner` holds (a page or connection that went away). */
  leaveOwner(owner: string): void {
    const frames = [...this.#byFrame.values()].flatMap((i) =>
      i.members.filter((m) => m.owner === owner).map((m) => m.frame_id),
    );
    for (const frameId of frames) this.leave(frameId);
  }

  /** The instance a frame belongs to, or null. */
  forFrame(frameId: string): InstanceSnapshot | null {
    const instance = this.#byFrame.get(frameId);
    return instance ? snapshot(instance) : null;
  }

  /** The running instance of an application in a channel, or null. */
  find(applicationId: string, channelId: string): InstanceSnapshot | null {
    const instance = this.#byKey.get(instanceKey(applicationId, channelId));
    return instance ? snapshot(instance) : null;
  }

  /** Every running instance. */
  list(): InstanceSnapshot[] {
    return [...this.#byKey.values()].map(snapshot);
  }

  /** True while a frame of `userId` runs `applicationId` in any instance. */
  #runs(userId: string, applicationId: string): boolean {
    for (const instance of this.#byKey.values()) {
      if (instance.application_id === applicationId && instance.members.some((m) => m.user.id === userId)) return true;
    }
    return false;
  }

  #frameLeft(left: FrameLeft): void {
    try {
      this.onFrameLeft(left);
    } catch {
      // What listens to leaving cannot keep a frame in its instance.
    }
  }

  #changed(instance: Instance, ended: boolean): void {
    try {
      this.onInstanceChange(snapshot(instance), ended);
    } catch {
      // What mirrors instances cannot keep a frame out of one.
    }
  }

  #instanceIdInUse(instanceId: string): boolean {
    for (const instance of this.#byKey.values()) if (instance.instance_id === instanceId) return true;
    return false;
  }

  #notify(instance: Instance, except?: string): void {
    const current = snapshot(instance);
    for (const member of instance.members) {
      if (member.frame_id === except || !member.listener) continue;
      try {
        member.listener(current);
      } catch {
        // One broken listener (a page that went away) must not keep the others uninformed.
      }
    }
  }
}

function instanceKey(applicationId: string, channelId: string): string {
  return `${applicationId}:${channelId}`;
}

/** Each user once, in first-join order. */
function participants(instance: Instance): RpcParticipant[] {
  const seen = new Map<string, RpcParticipant>();
  for (const m of instance.members) if (!seen.has(m.user.id)) seen.set(m.user.id, m.user);
  return [...seen.values()].map((u) => ({ ...u }));
}

function participantIds(instance: Instance): string {
  return participants(instance)
    .map((p) => p.id)
    .join(',');
}

function snapshot(instance: Instance): InstanceSnapshot {
  return {
    instance_id: instance.instance_id,
    application_id: instance.application_id,
    channel_id: instance.channel_id,
    guild_id: instance.guild_id,
    participants: participants(instance),
  };
}
