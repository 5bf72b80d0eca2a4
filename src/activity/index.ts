/**
 * The SDK an activity imports inside its iframe (`platformpp-web/activity`), built to
 * `dist/lib/activity.js`: the handshake, typed commands and events of the embedded-app RPC,
 * and URL mappings. It stays small: nothing of the platform, the store, lit or comlink.
 * @example
 * import { ActivitySdk } from 'platformpp-web/activity';
 * const sdk = new ActivitySdk(CLIENT_ID);
 * await sdk.ready();
 */
export { ActivitySdk, SDK_VERSION, type ActivitySdkOptions } from './client';
export { createCommands, type ActivityCommands } from './commands';
export { RpcError, RpcTimeoutError } from './errors';
export {
  assertNoPlatformCollision,
  attemptRemap,
  matchAndRewriteURL,
  patchUrlMappings,
  platformPathCollision,
  PLATFORM_PATH_PREFIXES,
  type PatchTarget,
  type UrlMapping,
} from './url-mappings';
export {
  COMMANDS,
  LAYOUT_MODES,
  OPCODES,
  ORIENTATION_LOCK_STATES,
  RPC_CLOSE_CODES,
  RPC_ERROR_CODES,
  SCREEN_ORIENTATIONS,
  SUBSCRIBABLE_EVENTS,
  type ActivityInput,
  type Command,
  type CommandMap,
  type EventMap,
  type RichPresenceActivity,
  type RpcParticipant,
  type RpcUser,
  type SubscribableEvent,
} from '../rpc/protocol';
