/**
 * The instance socket: how a page that joined a platform server keeps its activity frames in the
 * server's activity instances, and hears who speaks in the server's voice calls, in one file both
 * ends import. One WebSocket per page at `<server>/activity-instances`, JSON text frames.
 *
 * The socket holds the frames that joined on it: when it closes (the page went away, the network
 * dropped), the server removes them, and every other device's frames of their instances hear it.
 * A page whose socket dropped opens a new one and joins again naming the instance each frame was
 * in, which is kept while no other instance runs in that channel.
 *
 * A leaf of the tree (it imports nothing): the server and the page both load it.
 */

/** Where the socket is, below a server's (or sandbox's) URL. */
export const INSTANCE_SOCKET_PATH = '/activity-instances';

/** The close code the server ends a socket with when a message is malformed (it names the field). */
export const INSTANCE_SOCKET_INVALID_MESSAGE = 4000;

/** A user in an instance, as the activity's RPC shows them. */
export interface InstanceSocketParticipant {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: string | null;
  bot: boolean;
  flags: number;
  premium_type: number | null;
  nickname?: string;
}

/** An instance as its frames see it: each user once, in first-join order. */
export interface InstanceSocketView {
  instance_id: string;
  application_id: string;
  channel_id: string;
  guild_id: string | null;
  participants: InstanceSocketParticipant[];
}

/** What a frame says when it joins. */
export interface InstanceSocketJoin {
  application_id: string;
  channel_id: string;
  guild_id: string | null;
  frame_id: string;
  user: InstanceSocketParticipant;
  /** The instance the frame ran in before the page's socket dropped (a rejoin). */
  instance_id?: string;
}

/** A change of who speaks in a call (`channel_id` for a guild voice channel, `lobby_id` for a lobby call). */
export interface InstanceSocketSpeaking {
  user_id: string;
  speaking: boolean;
  channel_id?: string;
  lobby_id?: string;
}

/** Page → server. */
export type InstanceSocketRequest =
  /** Adds the frame to the instance of its application and channel; answered `joined` with the same `nonce`. */
  | { op: 'join'; nonce: number; join: InstanceSocketJoin }
  /** Removes the frame (no answer: the others hear it). */
  | { op: 'leave'; frame_id: string }
  /** Watches who speaks in the voice call `call_id` (a guild voice channel's or a lobby's id) until unwatched. */
  | { op: 'watch_speaking'; watch_id: number; call_id: string }
  | { op: 'unwatch_speaking'; watch_id: number };

/** Server → page. */
export type InstanceSocketEvent =
  /** The answer to a `join`: the instance the frame is in now. */
  | { op: 'joined'; nonce: number; instance: InstanceSocketView }
  /**
   * The participants of an instance this socket holds a frame of changed (or it ended): `frame_id`
   * is the frame whose join or leave changed it, which learns it from its own answer.
   */
  | { op: 'participants'; instance: InstanceSocketView; frame_id: string; ended: boolean }
  /** A start or stop of a speaker in a watched call. */
  | { op: 'speaking'; watch_id: number; change: InstanceSocketSpeaking };

/**
 * The instance socket's URL next to the gateway URL a server names (`GET <url>/api/v10/gateway`):
 * the page reaches it where it reaches the gateway, also when its HTTP requests go through a relay.
 * @example instanceSocketUrl('ws://127.0.0.1:8787/s/a/gateway') // 'ws://127.0.0.1:8787/s/a/activity-instances'
 */
export function instanceSocketUrl(gatewayUrl: string): string {
  const url = new URL(gatewayUrl);
  url.search = '';
  url.pathname = `${url.pathname.replace(/\/gateway\/?$/, '')}${INSTANCE_SOCKET_PATH}`;
  return url.href;
}
