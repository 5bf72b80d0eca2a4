/**
 * The server's instance sockets (`src/wire/instance-socket.ts`): each page that joined the server
 * keeps its activity frames in the sandbox's activity instances through one socket, and hears who
 * speaks in the sandbox's voice calls on it. Instances are records of the store; their changes
 * come from the durable log (ACTIVITY_INSTANCE_UPDATE), read here as the gateway reads it, so
 * every device's page hears every join and leave. A socket that closes takes its frames with it.
 */
import * as v from 'valibot';
import type { SpeakingWatch } from '../src/gateway/voice-speaking';
import type { Announcement } from '../src/platform/core/announcements';
import type { PlatformContext } from '../src/platform/core/context';
import { redactSecrets } from '../src/platform/core/secrets';
import {
  joinStoredInstance,
  leaveHolderInstances,
  leaveStoredInstance,
  runsApplication,
} from '../src/platform/activities/activity-instances';
import { clearActivity } from '../src/platform/presence/presence';
import { latestEventSeq, readEventsAfter } from '../src/store/event-log';
import type { EventRecord } from '../src/store/schema';
import {
  INSTANCE_SOCKET_INVALID_MESSAGE,
  type InstanceSocketEvent,
  type InstanceSocketRequest,
} from '../src/wire/instance-socket';
import { InstanceSocketRequestSchema } from './instance-socket-schema';

/** What a socket's end of the server sends on. */
export interface InstanceSocketTransport {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/** A frame that joined on a socket. */
interface JoinedFrame {
  instance_id: string;
  user_id: string;
  application_id: string;
}

/** Events read from the log per page. */
const LOG_PAGE = 500;

/** One page's socket: the frames it holds (by instance) and its speaking watches. */
export class InstanceSocket {
  readonly holder = `socket-${crypto.randomUUID()}`;
  /** Each frame that joined on this socket: its instance, user and application. */
  readonly frames = new Map<string, JoinedFrame>();
  readonly #watches = new Map<number, () => void>();
  closed = false;

  constructor(
    private readonly owner: InstanceSockets,
    private readonly transport: InstanceSocketTransport,
  ) {}

  /** Whether a frame of `instanceId` joined on this socket. */
  holds(instanceId: string): boolean {
    for (const frame of this.frames.values()) if (frame.instance_id === instanceId) return true;
    return false;
  }

  send(event: InstanceSocketEvent): void {
    if (!this.closed) this.transport.send(JSON.stringify(event));
  }

  /** A text frame from the page. */
  receive(data: string | ArrayBuffer): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data));
    } catch {
      return this.#refuse('the message is not JSON');
    }
    const result = v.safeParse(InstanceSocketRequestSchema, parsed);
    if (!result.success) {
      const path = v.getDotPath(result.issues[0]) ?? 'op';
      return this.#refuse(`${path}: ${result.issues[0].message}`);
    }
    this.owner.handle(this, result.output as InstanceSocketRequest).catch((error) => this.owner.report(error));
  }

  /** Starts watching a call; a watch id used again replaces its watch. */
  watch(watchId: number, stop: () => void): void {
    this.#watches.get(watchId)?.();
    this.#watches.set(watchId, stop);
  }

  unwatch(watchId: number): void {
    this.#watches.get(watchId)?.();
    this.#watches.delete(watchId);
  }

  /** The page's end closed (or dropped): its frames leave their instances, its watches stop. */
  clientClosed(): void {
    if (this.closed) return;
    this.closed = true;
    for (const stop of this.#watches.values()) stop();
    this.#watches.clear();
    this.owner.ended(this);
  }

  #refuse(reason: string): void {
    this.transport.close(INSTANCE_SOCKET_INVALID_MESSAGE, `Invalid message: ${reason}`.slice(0, 120));
    this.clientClosed();
  }
}

/**
 * The instance sockets of one sandbox.
 * @example const sockets = new InstanceSockets(ctx, voiceGateway.speakers); const socket = sockets.connect({ send, close });
 */
export class InstanceSockets {
  readonly #sockets = new Set<InstanceSocket>();
  #logPosition: Promise<number>;
  #lock: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: PlatformContext,
    private readonly speakers: SpeakingWatch,
    private readonly log: (line: string) => void = console.error,
  ) {
    this.#logPosition = latestEventSeq(ctx.db);
  }

  /** Opens a page's socket. */
  connect(transport: InstanceSocketTransport): InstanceSocket {
    const socket = new InstanceSocket(this, transport);
    this.#sockets.add(socket);
    return socket;
  }

  /** Answers one request of `socket`. */
  async handle(socket: InstanceSocket, request: InstanceSocketRequest): Promise<void> {
    switch (request.op) {
      case 'join': {
        const instance = await joinStoredInstance(this.ctx, { ...request.join, holder: socket.holder });
        // The page went away while the write ran: what it joined leaves with it.
        if (socket.closed) return void (await leaveHolderInstances(this.ctx, socket.holder));
        socket.frames.set(request.join.frame_id, {
          instance_id: instance.instance_id,
          user_id: request.join.user.id,
          application_id: request.join.application_id,
        });
        return socket.send({ op: 'joined', nonce: request.nonce, instance });
      }
      case 'leave': {
        const frame = socket.frames.get(request.frame_id);
        if (!frame) return;
        socket.frames.delete(request.frame_id);
        await leaveStoredInstance(this.ctx, request.frame_id);
        return this.#clearPresences([frame]);
      }
      case 'watch_speaking': {
        const { watch_id, call_id } = request;
        socket.watch(
          watch_id,
          this.speakers.watch(call_id, (change) => socket.send({ op: 'speaking', watch_id, change })),
        );
        return;
      }
      case 'unwatch_speaking':
        return socket.unwatch(request.watch_id);
    }
  }

  /** A socket ended: its frames leave. */
  ended(socket: InstanceSocket): void {
    this.#sockets.delete(socket);
    const frames = [...socket.frames.values()];
    socket.frames.clear();
    leaveHolderInstances(this.ctx, socket.holder)
      .then(() => this.#clearPresences(frames))
      .catch((error) => this.report(error));
  }

  /**
   * The rich presence an activity set goes with its user's last frame of the application, as in
   * the browser's hub: a page that went away cannot clear it itself.
   */
  async #clearPresences(frames: JoinedFrame[]): Promise<void> {
    for (const frame of frames) {
      if (await runsApplication(this.ctx, frame.user_id, frame.application_id)) continue;
      await clearActivity(this.ctx, frame.user_id, frame.application_id);
    }
  }

  /** Reacts to the sandbox's commits: instance updates reach the sockets holding frames of them. */
  announce(message: Announcement): Promise<void> {
    if (message.type === 'reset') {
      for (const socket of [...this.#sockets]) socket.frames.clear();
      return this.#serialized(
        async () => void (this.#logPosition = Promise.resolve(await latestEventSeq(this.ctx.db))),
      );
    }
    if (message.type !== 'events') return Promise.resolve();
    return this.#serialized(async () => {
      const position = await this.#logPosition;
      // A write that carries its events and continues from what was read is delivered from its
      // announcement, as the gateway's tail does: no read of the log for each commit.
      if (message.events && message.after === position) {
        this.#logPosition = Promise.resolve(message.seq);
        for (const event of message.events) this.#deliver(event);
        return;
      }
      await this.#readLog();
    });
  }

  /** Logs an unexpected error (secrets redacted). */
  report(error: unknown): void {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.log(redactSecrets(`platformpp instance sockets: ${detail}`));
  }

  async #readLog(): Promise<void> {
    for (;;) {
      const events = await readEventsAfter(this.ctx.db, await this.#logPosition, LOG_PAGE);
      if (events.length === 0) return;
      this.#logPosition = Promise.resolve(events[events.length - 1].seq!);
      for (const event of events) this.#deliver(event);
      if (events.length < LOG_PAGE) return;
    }
  }

  #deliver(event: EventRecord): void {
    if (event.type !== 'ACTIVITY_INSTANCE_UPDATE') return;
    const { instance, frame_id, ended } = event.data;
    for (const socket of this.#sockets) {
      if (!socket.holds(instance.instance_id)) continue;
      socket.send({ op: 'participants', instance, frame_id, ended });
    }
  }

  #serialized<T>(body: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(body, body);
    this.#lock = run.catch(() => undefined);
    return run;
  }
}
