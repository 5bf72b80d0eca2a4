/**
 * The package's main entry point (`platformpp-web`), built to `dist/lib/index.js` and exposed
 * on `globalThis.platformpp` in the built host page (CONTRACT §4): the gateway and voice gateway
 * sockets, the sandbox client, the game SDK, and the platform's constants, for the browser
 * console and for tests written outside the project. Importing it defines no element: the lit elements live in
 * `platformpp-web/components`.
 * @example
 * import { GatewaySocket, VoiceGatewaySocket, SandboxClient, Client, PERMISSIONS } from 'platformpp-web';
 */
export { GatewaySocket, hub, serveGatewaySockets, type GatewaySocketOptions } from './sockets/gateway-socket';
export { VoiceGatewaySocket } from './sockets/voice-gateway-socket';
export {
  VOICE_OPCODES,
  VOICE_CLOSE_CODES,
  SPEAKING_FLAGS,
  type VoicePayload,
  type VoicePeerSignalData,
  type VoiceE2eeMessageData,
} from './gateway/voice-protocol';
export {
  GATEWAY_OPCODES,
  GATEWAY_CLOSE_CODES,
  CAPABILITY_CHANNEL_OBFUSCATION,
  type GatewayPayload,
} from './gateway/protocol';
export { SandboxClient, SandboxError } from './components/sandbox-client';
export type { FaultRequest, InjectedFault, RateLimitSettingsView } from './components/sandbox-faults';
export type { ServiceWorkerRestart } from './components/service-worker-restart';
export * from './sdk/index';
export { API_ERRORS, ApiError, OAuth2Error, type ApiErrorBody } from './platform/core/errors';
export {
  PERMISSIONS,
  computeBasePermissions,
  computeChannelPermissions,
  parsePermissions,
} from './platform/core/permissions';
export { INTENTS, PRIVILEGED_INTENTS } from './platform/core/intents';
export { SCOPES, SCOPE_EXPANSIONS, effectiveScopes } from './platform/oauth2/scopes';
export { RULE_DATES, inForce } from './platform/core/dates';
export * as limits from './platform/core/limits';
export { snowflakeTime, snowflakeAt, isSnowflake, PLATFORM_EPOCH } from './platform/core/snowflake';
export { APPLICATION_FLAGS, CHANNEL_OBFUSCATED, OBFUSCATED_CHANNEL_NAME } from './store/records/core';
