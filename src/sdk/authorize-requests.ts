/**
 * The AUTHORIZE_REQUEST wire: the host platform client (the page that simulates the platform's
 * client, e.g. its "Link account" button) asks a running game to start `authorize()`. It is a
 * BroadcastChannel, the browser's local IPC between pages of one origin, so that it works before
 * the game holds any token (a gateway dispatch would need one). Both ends import this file.
 *
 * The subscription belongs to the `Client`, not to its gateway connection: it is taken when a
 * callback is registered and kept across `disconnect()` / `connect()` and across socket drops,
 * so a request after a reconnect reaches the callback without registering again.
 */

/** The channel name. */
export const SDK_IPC_CHANNEL = 'platformpp-sdk';

/** What travels on {@link SDK_IPC_CHANNEL}. */
export type SdkIpcMessage = {
  type: 'AUTHORIZE_REQUEST';
  /** The game asked to authorize. */
  application_id: string;
  /** The simulated user who asked; games simulating another user ignore it. Absent: any user. */
  user_id?: string | null;
};

/** What an authorize-request callback receives. */
export interface AuthorizeRequest {
  applicationId: string;
  userId: string | null;
}

/** The part of BroadcastChannel both ends use. */
export interface BroadcastChannelLike {
  postMessage(message: unknown): void;
  close(): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** Opens a channel by name (tests may pass their own). */
export type ChannelFactory = (name: string) => BroadcastChannelLike;

/** The browser's BroadcastChannel. */
export const openBroadcastChannel: ChannelFactory = (name) => new BroadcastChannel(name);

function isAuthorizeRequest(data: unknown): data is SdkIpcMessage {
  const m = data as Partial<SdkIpcMessage> | null;
  return (
    !!m &&
    m.type === 'AUTHORIZE_REQUEST' &&
    typeof m.application_id === 'string' &&
    (m.user_id == null || typeof m.user_id === 'string')
  );
}

/**
 * Host side: asks every running game of `applicationId` (for `userId`, when given) to start
 * its authorization flow.
 * @example postAuthorizeRequest({ applicationId: '1234', userId: currentUser.id });
 */
export function postAuthorizeRequest(
  request: { applicationId: string; userId?: string },
  open: ChannelFactory = openBroadcastChannel,
): void {
  const channel = open(SDK_IPC_CHANNEL);
  const message: SdkIpcMessage = {
    type: 'AUTHORIZE_REQUEST',
    application_id: request.applicationId,
    user_id: request.userId ?? null,
  };
  channel.postMessage(message);
  channel.close();
}

/**
 * Game side: calls `onRequest` for each AUTHORIZE_REQUEST addressed to this game and user
 * (read at delivery time, so `setApplicationId` after subscribing applies). Returns the
 * unsubscribe function.
 */
export function subscribeAuthorizeRequests(
  target: () => { applicationId: string | undefined; userId: string | undefined },
  onRequest: (request: AuthorizeRequest) => void,
  open: ChannelFactory = openBroadcastChannel,
): () => void {
  const channel = open(SDK_IPC_CHANNEL);
  channel.addEventListener('message', (event) => {
    if (!isAuthorizeRequest(event.data)) return;
    const { applicationId, userId } = target();
    if (event.data.application_id !== applicationId) return;
    if (event.data.user_id && userId && event.data.user_id !== userId) return;
    onRequest({ applicationId: event.data.application_id, userId: event.data.user_id ?? null });
  });
  return () => channel.close();
}
