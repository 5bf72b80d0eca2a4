/**
 * What the RPC host's command handlers run against: the frame they serve, the session an
 * AUTHENTICATE opened, the platform, and the host page's user interface. Kept apart from the
 * host so that handlers are plain functions a unit test can call.
 */
import type { PlatformClient } from './platform-client';
import type { ActivityPlatform, CommandMap, RpcParticipant, SubscribableEvent } from './protocol';

/** The frame an RPC host serves, as `<pp-activity-frame>` set it up. */
export interface FrameInfo {
  frame_id: string;
  application_id: string;
  instance_id: string;
  guild_id: string | null;
  channel_id: string;
  platform: ActivityPlatform;
  /** The simulated user running the activity. */
  user: RpcParticipant;
  /** The activity's page without the frame's own query parameters (share links point at it). */
  url: string;
}

/** What AUTHENTICATE established. The token stays in memory only, never in a log or event. */
export interface RpcSession {
  access_token: string;
  /** The scopes granted, as AUTHENTICATE answers them. */
  granted: string[];
  /** The granted scopes with the SDK's umbrella scopes expanded: what checks read. */
  scopes: Set<string>;
  user: CommandMap['AUTHENTICATE']['data']['user'];
  application: CommandMap['AUTHENTICATE']['data']['application'];
}

/** The places the platform offers to share to (GET `/rpc/share-targets`). */
export interface ShareTargets {
  channels: { id: string; name: string; type: number; guild_id: string }[];
  friends: { id: string; username: string; global_name: string | null }[];
}

/** Where the user chose to share: a channel, or a friend's direct messages. */
export type ShareChoice = { channel_id: string } | { user_id: string };

/** What a share dialog shows: what is shared, and the platform's choices of where to. */
export interface ShareRequest {
  kind: 'moment' | 'interaction';
  application: { id: string; name: string };
  targets: ShareTargets;
  /** The media of a moment; the preview image of an interaction. */
  image_url?: string;
  /** An interaction's preview text and buttons, and the command it runs. */
  content?: string;
  buttons?: string[];
  command?: string;
}

/** The host page's part: dialogs, links, logs, device facts. The component implements it. */
export interface HostUi {
  /** Shows the consent dialog ("Authorize" / "Cancel"); true when authorized. */
  requestConsent(options: {
    application: { id: string; name: string };
    scopes: string[];
    user: { id: string; username: string };
  }): Promise<boolean>;
  /** Opens a link outside the platform; whether it opened (null when unknown). */
  openExternalLink(url: string): Promise<boolean | null>;
  /** Shows the channel invite dialog for the frame's channel. */
  openInviteDialog(frame: FrameInfo): Promise<void>;
  /** Offers a link to the activity to share. */
  shareLink(request: {
    message: string;
    custom_id?: string;
    link_id?: string;
    url: string;
  }): Promise<{ success: boolean; didCopyLink: boolean; didSendMessage: boolean }>;
  /** An activity's log line (already redacted). */
  captureLog(level: 'log' | 'warn' | 'debug' | 'info' | 'error', message: string): void;
  /** Whether the host's graphics are hardware accelerated. */
  hardwareAcceleration(): Promise<boolean>;
  /** The user's locale (BCP 47). */
  locale(): string;
  /**
   * The purchase dialog of START_PURCHASE: shows what is bought and at what price, and resolves
   * true when the user buys it, false when they close it. A host without one completes the
   * purchase at once, as the platform's application test mode does.
   */
  confirmPurchase?(request: {
    application_id: string;
    sku: { id: string; name: string; price: { amount: number; currency: string } };
    user: { id: string; username: string };
  }): Promise<boolean>;
  /**
   * INITIATE_IMAGE_UPLOAD's file picker: resolves with the image the user picked (JPEG, PNG or
   * GIF), or null when they cancelled.
   */
  pickImage(request: { application: { id: string; name: string } }): Promise<File | null>;
  /** The share dialog (OPEN_SHARE_MOMENT_DIALOG, SHARE_INTERACTION): where the user shares, or null for Cancel. */
  chooseShareTarget(request: ShareRequest): Promise<ShareChoice | null>;
  /** INVITE_USER_EMBEDDED's confirmation: true when the user sends the invite. */
  confirmActivityInvite(request: {
    application: { id: string; name: string };
    user: { id: string; username: string; global_name: string | null };
    content?: string;
  }): Promise<boolean>;
  /** Work a command started after it answered (a share the user confirmed) failed: tell the page. */
  backgroundError?(cmd: string, error: { code: number; message: string }): void;
}

/** Settings an activity made with SET_CONFIG and SET_ORIENTATION_LOCK_STATE. */
export interface FrameSettings {
  use_interactive_pip: boolean;
  lock_state: 1 | 2 | 3;
  picture_in_picture_lock_state: 1 | 2 | 3 | null;
  grid_lock_state: 1 | 2 | 3 | null;
}

/** A command handler's view of the host. */
export interface CommandContext {
  readonly frame: FrameInfo;
  readonly platform: PlatformClient;
  readonly ui: HostUi;
  /** The open session; handlers of authenticated commands may rely on it. */
  readonly session: RpcSession | null;
  readonly settings: FrameSettings;
  /** The instance's participants now. */
  participants(): RpcParticipant[];
  /** Opens (replaces) the session. */
  authenticate(session: RpcSession): void;
  /** Records a subscription; `key` says which guild or channel it is for ('' for none). */
  subscribe(event: SubscribableEvent, key: string): void;
  unsubscribe(event: SubscribableEvent, key: string): void;
  /** Sends an event to the activity if it subscribed to it (for `key`). */
  dispatch(event: SubscribableEvent, data: unknown, key?: string): void;
}
