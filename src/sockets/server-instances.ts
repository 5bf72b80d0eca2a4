/**
 * A page's activity instances on a platform server (`src/wire/instance-socket.ts`): the
 * directory `<pp-activity-frame>` joins when its page joined a server, so that frames on every
 * device share the server's instances, and the speaking watches of the server's voice calls.
 * One socket per page and server, opened on first use. When it drops, the page opens a new one
 * and joins every frame again naming its instance (kept while no other runs there); a frame
 * hears the instance it is in after the rejoin through its listener.
 */
import type { InstanceDirectory, InstanceJoin, InstanceSnapshot, ParticipantsListener } from '../rpc/instances';
import {
  type InstanceSocketEvent,
  type InstanceSocketJoin,
  type InstanceSocketRequest,
  type InstanceSocketSpeaking,
  instanceSocketUrl,
} from '../wire/instance-socket';

/** How long a page waits before it opens a dropped socket again. */
const RECONNECT_MS = 1_000;

interface Frame {
  join: InstanceSocketJoin;
  listener?: ParticipantsListener;
}

interface Watch {
  callId: string;
  onChange: (change: InstanceSocketSpeaking) => void;
}

/**
 * The server's instances, as one page reaches them.
 * @example
 * const directory = serverInstances('ws://127.0.0.1:8787/gateway');
 * const instance = await directory.join({ application_id, channel_id, guild_id, frame_id, user }, (s) => show(s));
 */
export class ServerInstanceDirectory implements InstanceDirectory {
  readonly #frames = new Map<string, Frame>();
  readonly #watches = new Map<number, Watch>();
  readonly #pending = new Map<number, (instance: InstanceSnapshot) => void>();
  #socket: WebSocket | null = null;
  #open: Promise<WebSocket> | null = null;
  #nonce = 0;
  #watchId = 0;

  /** @param gatewayUrl the gateway URL the server names: the instance socket is next to it. */
  constructor(readonly gatewayUrl: string) {}

  /** Joins the frame to the server's instance of its application and channel. */
  async join(request: InstanceJoin, listener?: ParticipantsListener): Promise<InstanceSnapshot> {
    const join: InstanceSocketJoin = {
      application_id: request.application_id,
      channel_id: request.channel_id,
      guild_id: request.guild_id,
      frame_id: request.frame_id,
      user: { ...request.user },
      ...(request.instance_id !== undefined ? { instance_id: request.instance_id } : {}),
    };
    this.#frames.set(request.frame_id, { join, listener });
    const socket = await this.#connect();
    return this.#ask(socket, join);
  }

  /** Leaves the frame's instance. */
  leave(frameId: string): void {
    if (!this.#frames.delete(frameId)) return;
    this.#send({ op: 'leave', frame_id: frameId });
  }

  /** Watches who speaks in the server's call `callId`; returns the function that stops. */
  watchSpeaking(callId: string, onChange: (change: InstanceSocketSpeaking) => void): () => void {
    const watchId = ++this.#watchId;
    this.#watches.set(watchId, { callId, onChange });
    void this.#connect()
      .then(() => this.#send({ op: 'watch_speaking', watch_id: watchId, call_id: callId }))
      .catch(() => undefined);
    return () => {
      if (this.#watches.delete(watchId)) this.#send({ op: 'unwatch_speaking', watch_id: watchId });
    };
  }

  #ask(socket: WebSocket, join: InstanceSocketJoin): Promise<InstanceSnapshot> {
    const nonce = ++this.#nonce;
    return new Promise((resolve) => {
      this.#pending.set(nonce, resolve);
      socket.send(JSON.stringify({ op: 'join', nonce, join } satisfies InstanceSocketRequest));
    });
  }

  #send(request: InstanceSocketRequest): void {
    if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(request));
  }

  #connect(): Promise<WebSocket> {
    if (this.#open) return this.#open;
    this.#open = new Promise((resolve, reject) => {
      const socket = new WebSocket(instanceSocketUrl(this.gatewayUrl));
      socket.addEventListener('open', () => {
        this.#socket = socket;
        resolve(socket);
      });
      socket.addEventListener('message', (event) => this.#receive(JSON.parse(String(event.data))));
      socket.addEventListener('close', () => {
        const wasOpen = this.#socket === socket;
        this.#socket = null;
        this.#open = null;
        if (!wasOpen)
          reject(new Error(`the platform server refused the instance socket (${instanceSocketUrl(this.gatewayUrl)})`));
        // Frames and watches live on: once the server is back they join and watch again.
        else if (this.#frames.size > 0 || this.#watches.size > 0) setTimeout(() => this.#reconnect(), RECONNECT_MS);
      });
    });
    return this.#open;
  }

  async #reconnect(): Promise<void> {
    let socket: WebSocket;
    try {
      socket = await this.#connect();
    } catch {
      setTimeout(() => void this.#reconnect(), RECONNECT_MS);
      return;
    }
    for (const [watchId, watch] of this.#watches)
      socket.send(JSON.stringify({ op: 'watch_speaking', watch_id: watchId, call_id: watch.callId }));
    for (const [frameId, frame] of this.#frames) {
      // A frame joins again naming the instance its activity runs in.
      const instance = await this.#ask(socket, frame.join);
      if (this.#frames.get(frameId) === frame) frame.join = { ...frame.join, instance_id: instance.instance_id };
      frame.listener?.(instance);
    }
  }

  #receive(event: InstanceSocketEvent): void {
    switch (event.op) {
      case 'joined': {
        const resolve = this.#pending.get(event.nonce);
        this.#pending.delete(event.nonce);
        resolve?.(event.instance);
        return;
      }
      case 'participants':
        for (const [frameId, frame] of this.#frames) {
          if (frameId === event.frame_id || event.ended) continue;
          if (frame.join.application_id !== event.instance.application_id) continue;
          if (frame.join.channel_id !== event.instance.channel_id) continue;
          frame.listener?.(event.instance);
        }
        return;
      case 'speaking':
        this.#watches.get(event.watch_id)?.onChange(event.change);
        return;
    }
  }
}

const directories = new Map<string, ServerInstanceDirectory>();

/**
 * The page's directory of the server whose gateway is `gatewayUrl` (one per server, shared by the
 * page's frames).
 * @example const directory = serverInstances(platform.joinedServer.gateway_url);
 */
export function serverInstances(gatewayUrl: string): ServerInstanceDirectory {
  let directory = directories.get(gatewayUrl);
  if (!directory) directories.set(gatewayUrl, (directory = new ServerInstanceDirectory(gatewayUrl)));
  return directory;
}
