/**
 * The embedded-app RPC wire (CONTRACT §5): what an activity iframe and its host page post to
 * each other. One file imported by both ends, the host (`src/rpc`) and the activity SDK
 * (`src/activity`), so it holds types and constants only: nothing that would weigh on the
 * SDK an activity ships (the rich presence shape comes from `src/wire`, a leaf like this file).
 *
 * Messages are `[opcode, payload]` tuples sent with `postMessage`. A FRAME is
 * `{cmd, args, nonce, evt}` from the activity; the host answers `{cmd, nonce, evt: null, data}`,
 * or `{cmd, nonce, evt: 'ERROR', data: {code, message}}`, and dispatches subscribed events as
 * `{cmd: 'DISPATCH', evt, nonce: null, data}`. Every key is always present in what the host
 * sends (null when empty): the platform's public SDK parses them as required.
 */
import type { PresenceActivity, RichPresenceInput } from '../wire/rich-presence';

/** The opcodes of the tuple's first element. */
export const OPCODES = { HANDSHAKE: 0, FRAME: 1, CLOSE: 2, HELLO: 3 } as const;
/** An opcode number. */
export type Opcode = (typeof OPCODES)[keyof typeof OPCODES];

/** The only protocol version. */
export const RPC_VERSION = 1;

/** Error codes of ERROR frames (`data.code`). */
export const RPC_ERROR_CODES = {
  UNKNOWN_ERROR: 1000,
  INVALID_PAYLOAD: 4000,
  INVALID_COMMAND: 4002,
  INVALID_GUILD: 4003,
  INVALID_EVENT: 4004,
  INVALID_CHANNEL: 4005,
  INVALID_PERMISSIONS: 4006,
  INVALID_CLIENT_ID: 4007,
  INVALID_ORIGIN: 4008,
  INVALID_TOKEN: 4009,
  INVALID_USER: 4010,
  /** The user refused the consent dialog (or the authorization endpoint refused the request). */
  OAUTH2_ERROR: 5000,
} as const;
/** An ERROR frame's code. */
export type RpcErrorCode = (typeof RPC_ERROR_CODES)[keyof typeof RPC_ERROR_CODES];

/** Close codes of CLOSE messages (the host ends the session). */
export const RPC_CLOSE_CODES = {
  CLOSE_NORMAL: 1000,
  CLOSE_UNSUPPORTED: 1003,
  INVALID_CLIENT_ID: 4000,
  INVALID_ORIGIN: 4001,
  RATE_LIMITED: 4002,
  TOKEN_REVOKED: 4003,
  INVALID_VERSION: 4004,
  INVALID_ENCODING: 4005,
} as const;

/** Every command the host answers. */
export const COMMANDS = [
  'AUTHORIZE',
  'AUTHENTICATE',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'SET_ACTIVITY',
  'GET_CHANNEL',
  'GET_CHANNEL_PERMISSIONS',
  'GET_SKUS_EMBEDDED',
  'GET_ENTITLEMENTS_EMBEDDED',
  'GET_PLATFORM_BEHAVIORS',
  'USER_SETTINGS_GET_LOCALE',
  'GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS',
  'OPEN_EXTERNAL_LINK',
  'OPEN_INVITE_DIALOG',
  'SHARE_LINK',
  'START_PURCHASE',
  'CAPTURE_LOG',
  'SET_CONFIG',
  'SET_ORIENTATION_LOCK_STATE',
  'ENCOURAGE_HW_ACCELERATION',
  'GET_RELATIONSHIPS',
  'GET_USER',
  'GET_QUEST',
  'GET_QUEST_ENROLLMENT_STATUS',
  'QUEST_START_TIMER',
  'INITIATE_IMAGE_UPLOAD',
  'OPEN_SHARE_MOMENT_DIALOG',
  'SHARE_INTERACTION',
  'INVITE_USER_EMBEDDED',
  'REQUEST_PROXY_TICKET_REFRESH',
] as const;
/** A command name. */
export type Command = (typeof COMMANDS)[number];

/** Every event an activity may subscribe to (READY and ERROR arrive unasked). */
export const SUBSCRIBABLE_EVENTS = [
  'GUILD_STATUS',
  'VOICE_STATE_UPDATE',
  'SPEAKING_START',
  'SPEAKING_STOP',
  'CURRENT_USER_UPDATE',
  'CURRENT_GUILD_MEMBER_UPDATE',
  'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE',
  'ENTITLEMENT_CREATE',
  'ACTIVITY_LAYOUT_MODE_UPDATE',
  'ORIENTATION_UPDATE',
  'RELATIONSHIP_UPDATE',
  'THERMAL_STATE_UPDATE',
  'ACTIVITY_JOIN',
  'QUEST_ENROLLMENT_STATUS_UPDATE',
] as const;
/** A subscribable event name. */
export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];
/** Every event name the host dispatches. */
export type RpcEvent = 'READY' | 'ERROR' | SubscribableEvent;

/** The `cmd` of an event dispatch. */
export const DISPATCH = 'DISPATCH';

/** HANDSHAKE payload, activity → host. */
export interface HandshakePayload {
  v: 1;
  encoding?: 'json';
  client_id: string;
  frame_id: string;
  sdk_version?: string;
}

/** CLOSE payload, either way. */
export interface ClosePayload {
  code: number;
  message?: string;
  nonce?: string;
}

/** A command FRAME, activity → host. */
export interface CommandFrame {
  cmd: string;
  args?: unknown;
  nonce: string;
  /** The event of a SUBSCRIBE / UNSUBSCRIBE. */
  evt?: string | null;
}

/** A reply FRAME, host → activity. */
export interface ReplyFrame<T = unknown> {
  cmd: string;
  nonce: string;
  evt: null;
  data: T;
}

/** An ERROR FRAME, host → activity; `nonce` is null for an error no command caused. */
export interface ErrorFrame {
  cmd: string;
  nonce: string | null;
  evt: 'ERROR';
  data: { code: number; message: string };
}

/** An event dispatch, host → activity. */
export interface DispatchFrame<T = unknown> {
  cmd: typeof DISPATCH;
  nonce: null;
  evt: RpcEvent;
  data: T;
}

/** Anything the host sends in a FRAME. */
export type HostFrame = ReplyFrame | ErrorFrame | DispatchFrame;

/** A message on the wire. */
export type RpcMessage =
  | [typeof OPCODES.HANDSHAKE, HandshakePayload]
  | [typeof OPCODES.FRAME, CommandFrame | HostFrame]
  | [typeof OPCODES.CLOSE, ClosePayload]
  | [typeof OPCODES.HELLO, unknown];

/** The query parameters `<pp-activity-frame>` adds to the activity's URL. */
export const FRAME_QUERY_PARAMS = [
  'frame_id',
  'instance_id',
  'platform',
  'guild_id',
  'channel_id',
  'location_id',
] as const;

/** Where the activity runs. */
export type ActivityPlatform = 'desktop' | 'mobile';

/** A user as the RPC answers it (READY, participants, AUTHENTICATE, CURRENT_USER_UPDATE). */
export interface RpcUser {
  id: string;
  username: string;
  discriminator: string;
  global_name: string | null;
  avatar: string | null;
  /** Present (null) where the public SDK's user schema requires it: the events' users. */
  avatar_decoration_data?: null;
  bot: boolean;
  flags: number;
  premium_type: number | null;
}

/** A participant of an activity instance. */
export interface RpcParticipant extends RpcUser {
  nickname?: string;
}

/** A rich presence activity as SET_ACTIVITY takes it (spec: Activity record; types 0, 2, 3, 5). */
export type ActivityInput = RichPresenceInput;

/** A stored rich presence activity, as SET_ACTIVITY answers it. */
export type RichPresenceActivity = PresenceActivity;

/** A friend's presence in GET_RELATIONSHIPS: their status and first activity (fields set only). */
export interface RpcRelationshipPresence {
  status: string;
  activity?: { name: string; type?: number; application_id?: string; state?: string; details?: string } & Record<
    string,
    unknown
  >;
}

/** A relationship as GET_RELATIONSHIPS and RELATIONSHIP_UPDATE answer it. */
export interface RpcRelationship {
  type: number;
  user: RpcUser;
  presence?: RpcRelationshipPresence;
}

/** A button of a SHARE_INTERACTION preview (in action rows, as message components are). */
export interface ShareInteractionButton {
  type: 2;
  style: number;
  label?: string;
  custom_id?: string;
}

/** Thermal states (THERMAL_STATE_UPDATE). */
export const THERMAL_STATES = { NOMINAL: 0, FAIR: 1, SERIOUS: 2, CRITICAL: 3 } as const;
/** Orientation lock states (SET_ORIENTATION_LOCK_STATE). */
export const ORIENTATION_LOCK_STATES = { UNLOCKED: 1, PORTRAIT: 2, LANDSCAPE: 3 } as const;
/** Layout modes (ACTIVITY_LAYOUT_MODE_UPDATE). */
export const LAYOUT_MODES = { FOCUSED: 0, PIP: 1, GRID: 2 } as const;
/** Screen orientations (ORIENTATION_UPDATE). */
export const SCREEN_ORIENTATIONS = { PORTRAIT: 0, LANDSCAPE: 1 } as const;

/** Each command's arguments and answer: the typed map both ends share. */
export interface CommandMap {
  AUTHORIZE: {
    args: {
      client_id: string;
      scope: string[] | string;
      response_type?: 'code';
      state?: string;
      prompt?: 'none';
      code_challenge?: string;
      code_challenge_method?: 'S256';
    };
    data: { code: string };
  };
  AUTHENTICATE: {
    args: { access_token: string };
    data: {
      access_token: string;
      user: RpcUser & { public_flags: number };
      scopes: string[];
      expires: string;
      application: { id: string; name: string; description: string; icon: string | null; rpc_origins?: string[] };
    };
  };
  SUBSCRIBE: { args: Record<string, unknown> | undefined; data: { evt: string } };
  UNSUBSCRIBE: { args: Record<string, unknown> | undefined; data: { evt: string } };
  SET_ACTIVITY: { args: { activity: ActivityInput | null; pid?: number }; data: RichPresenceActivity | null };
  GET_CHANNEL: {
    args: { channel_id: string };
    data: {
      id: string;
      type: number;
      guild_id: string | null;
      name: string | null;
      topic: string | null;
      bitrate: number | null;
      user_limit: number | null;
      position: number | null;
      voice_states: unknown[];
      messages: unknown[];
    };
  };
  GET_CHANNEL_PERMISSIONS: { args: void; data: { permissions: string } };
  GET_SKUS_EMBEDDED: { args: void; data: { skus: unknown[] } };
  GET_ENTITLEMENTS_EMBEDDED: { args: void; data: { entitlements: unknown[] } };
  GET_PLATFORM_BEHAVIORS: { args: void; data: { iosKeyboardResizesView?: boolean } };
  USER_SETTINGS_GET_LOCALE: { args: void; data: { locale: string } };
  GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS: { args: void; data: { participants: RpcParticipant[] } };
  OPEN_EXTERNAL_LINK: { args: { url: string }; data: { opened: boolean | null } };
  OPEN_INVITE_DIALOG: { args: void; data: null };
  SHARE_LINK: {
    args: { message: string; custom_id?: string; link_id?: string };
    data: { success: boolean; didCopyLink: boolean; didSendMessage: boolean };
  };
  START_PURCHASE: { args: { sku_id: string; pid?: number }; data: unknown[] | null };
  CAPTURE_LOG: { args: { level: 'log' | 'warn' | 'debug' | 'info' | 'error'; message: string }; data: null };
  SET_CONFIG: { args: { use_interactive_pip: boolean }; data: { use_interactive_pip: boolean } };
  SET_ORIENTATION_LOCK_STATE: {
    args: {
      lock_state: 1 | 2 | 3;
      picture_in_picture_lock_state?: 1 | 2 | 3 | null;
      grid_lock_state?: 1 | 2 | 3 | null;
    };
    data: null;
  };
  ENCOURAGE_HW_ACCELERATION: { args: void; data: { enabled: boolean } };
  GET_RELATIONSHIPS: { args: void; data: { relationships: RpcRelationship[] } };
  GET_USER: { args: { id: string }; data: RpcUser | null };
  GET_QUEST: {
    args: void;
    data: { quest_id: string; enrolled_at: string | null; completed_at: string | null; external_cta_url: string };
  };
  GET_QUEST_ENROLLMENT_STATUS: {
    args: { quest_id: string };
    data: { quest_id: string; is_enrolled: boolean; enrolled_at: string | null };
  };
  QUEST_START_TIMER: { args: { quest_id: string }; data: { success: boolean } };
  INITIATE_IMAGE_UPLOAD: { args: void; data: { image_url: string } };
  OPEN_SHARE_MOMENT_DIALOG: { args: { mediaUrl: string }; data: null };
  SHARE_INTERACTION: {
    args: {
      command: string;
      options?: { name: string; value: string }[];
      content?: string;
      require_launch_channel?: boolean;
      preview_image?: { height: number; url: string; width: number };
      components?: { type: 1; components?: ShareInteractionButton[] }[];
      pid?: number;
    };
    data: { success: boolean };
  };
  INVITE_USER_EMBEDDED: { args: { user_id: string; content?: string }; data: null };
  REQUEST_PROXY_TICKET_REFRESH: { args: void; data: { ticket: string } };
}

/** Each event's payload (`data` of its DISPATCH) and its SUBSCRIBE arguments. */
export interface EventMap {
  READY: {
    data: {
      v: number;
      config: { cdn_host?: string; api_endpoint: string; environment: string };
      user?: { id: string; username: string; discriminator: string; avatar?: string };
    };
    args: never;
  };
  ERROR: { data: { code: number; message: string }; args: never };
  GUILD_STATUS: {
    data: { guild: { id: string; name: string; icon_url: string | null }; online: number };
    args: { guild_id: string };
  };
  VOICE_STATE_UPDATE: {
    data: {
      voice_state: { mute: boolean; deaf: boolean; self_mute: boolean; self_deaf: boolean; suppress: boolean };
      user: RpcUser;
      nick: string;
      volume: number;
      mute: boolean;
      /** The channel of the subscription (an addition: the platform's payload does not name it). */
      channel_id: string;
    };
    args: { channel_id: string };
  };
  SPEAKING_START: {
    data: { channel_id?: string; lobby_id?: string; user_id: string };
    args: { channel_id?: string | null; lobby_id?: string | null };
  };
  SPEAKING_STOP: {
    data: { channel_id?: string; lobby_id?: string; user_id: string };
    args: { channel_id?: string | null; lobby_id?: string | null };
  };
  CURRENT_USER_UPDATE: { data: RpcUser; args: undefined };
  CURRENT_GUILD_MEMBER_UPDATE: {
    data: {
      user_id: string;
      guild_id: string;
      nick: string | null;
      avatar: string | null;
      avatar_decoration_data: null;
      color_string: string | null;
    };
    args: { guild_id: string };
  };
  ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE: { data: { participants: RpcParticipant[] }; args: undefined };
  ENTITLEMENT_CREATE: { data: { entitlement: unknown }; args: undefined };
  ACTIVITY_LAYOUT_MODE_UPDATE: { data: { layout_mode: 0 | 1 | 2 }; args: undefined };
  ORIENTATION_UPDATE: { data: { screen_orientation: 0 | 1; orientation: 'portrait' | 'landscape' }; args: undefined };
  RELATIONSHIP_UPDATE: { data: { type: number; user: RpcUser }; args: undefined };
  THERMAL_STATE_UPDATE: { data: { thermal_state: 0 | 1 | 2 | 3 }; args: undefined };
  /** `secret`: the join secret of the activity joined ('' when it set none). */
  ACTIVITY_JOIN: { data: { applicationId: string; secret: string }; args: undefined };
  /** `enrolled_at` is a calendar date (`YYYY-MM-DD`, UTC): the public SDK's schema takes nothing finer. */
  QUEST_ENROLLMENT_STATUS_UPDATE: {
    data: { quest_id: string; is_enrolled: boolean; enrolled_at: string };
    args: { quest_id?: string | null };
  };
}
