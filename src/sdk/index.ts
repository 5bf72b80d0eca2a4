/**
 * The game SDK (`platformpp-web/sdk`), built to `dist/lib/sdk.js`: the `Client` of the spec's
 * `Client::` operations, `AuthorizationArgs`, and their enums and result types. It talks to the
 * platform over HTTP and the gateway only: nothing of the store or lit is in its core (the
 * gateway socket and the consent dialog are loaded on first use).
 * @example
 * import { AuthorizationArgs, AuthorizationTokenType, Client } from 'platformpp-web/sdk';
 */
export { Client } from './client';
export { type ClientOptions, type ClientResult, type VoiceOptions } from './client-core';
export { VoiceClient } from './client-voice';
export { DEFAULT_AUDIO_DEVICE_ID, type AudioDevice } from './client-audio';
export { SocialLayerClient } from './client-social-layer';
export { Call } from './call';
export {
  CallError,
  CallStatus,
  callErrorToString,
  callStatusToString,
  type CallStatusChangedCallback,
} from './call-status';
export type { CallTarget } from './call-signaling';
export type { VoiceStateHandle } from './call-roster';
export type { CallMediaFactory } from './call-media-link';
export type { AudioPreferences, CallMediaStats, PeerMediaStats } from '../media/call-media';
export type { PeerFrameStats } from '../media/frame-transform-protocol';
export type { VadThresholdSettings } from '../media/voice-activity';
export { RelationshipType, type RelationshipHandle } from './relationship-cache';
export type { UserMessageSummary } from './client-messages';
export type { ClientCallbacks } from './client-events';
export { ExternalAuthType } from './client-provisional';
export { AuthorizationArgs, IntegrationType, authorizeRedirectUri } from './authorization-args';
export {
  createAuthorizationCodeVerifier,
  generateState,
  type AuthorizationCodeChallenge,
  type AuthorizationCodeVerifier,
} from './code-verifier';
export { postAuthorizeRequest, SDK_IPC_CHANNEL, type AuthorizeRequest, type SdkIpcMessage } from './authorize-requests';
export { ErrorType, SdkError } from './errors';
export { GATEWAY_URL, type LinkTimers, type SocketFactory, type WebSocketLike } from './socket';
export type { SdkFetch } from './http';
export { LoggingSeverity, type LogCallback, type SdkBuild } from './logger';
export { ClientError, Status, clientErrorToString, statusToString, type StatusChangedCallback } from './status';
export {
  ActivityType,
  AuthorizationTokenType,
  StatusDisplayType,
  type AuthorizeResult,
  type ConsentFunction,
  type ConsentRequest,
  type GuildChannel,
  type Lobby,
  type LobbyMember,
  type LobbyMessage,
  type Metadata,
  type RichPresenceActivity,
  type StoredActivity,
  type TokenResult,
  type User,
} from './types';
export { checkSdkVersion, formatSdkVersion, SDK_VERSION } from './version';
