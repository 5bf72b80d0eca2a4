/**
 * The lit elements (`platformpp-web/components`), built to `dist/lib/components.js`. Importing
 * this module defines `<pp-platform>`, `<pp-activity-frame>` and `<pp-consent-dialog>`.
 * @example
 * import 'platformpp-web/components';
 * document.body.innerHTML = '<pp-platform current-user-id="…"><pp-activity-frame application-id="…" channel-id="…"></pp-activity-frame></pp-platform>';
 */
import { defineActivityFrame } from './activity-frame';
import { defineConsentDialog } from './consent-dialog';
import { definePlatformElement } from './platform-element';

export { ActivityFrame, ACTIVITY_FRAME_TAG, defineActivityFrame, type ActivityFrameStatus } from './activity-frame';
export type { InstanceDirectory } from '../rpc/instances';
export { frameUrl } from './frame-url';
export { FRAME_GATEWAY_URL, FRAME_INTENTS, listenToPlatform, type SocketLike } from './platform-events';
export { createHostUi, type ActivityFrameEventMap } from './activity-host-ui';
export {
  ConsentDialog,
  CONSENT_DIALOG_TAG,
  defineConsentDialog,
  requestConsent,
  type ConsentDecision,
  type ConsentOptions,
} from './consent-dialog';
export {
  PlatformElement,
  PLATFORM_STATUS,
  PLATFORM_TAG,
  definePlatformElement,
  type PlatformStatus,
  type PlatformStatusDetail,
} from './platform-element';
export { SandboxClient, SandboxError } from './sandbox-client';
export {
  VoiceCallController,
  voiceCallSnapshot,
  type VoiceCallSnapshot,
  type VoiceParticipantView,
} from './voice-call-controller';

definePlatformElement();
defineActivityFrame();
defineConsentDialog();
