/**
 * The lit elements (`platformpp-web/components`), built to `dist/lib/components.js`. Importing
 * this module defines `<pp-platform>`, `<pp-activity-frame>`, `<pp-consent-dialog>` and the
 * activity's other host dialogs (`<pp-share-dialog>`, `<pp-image-upload-dialog>`,
 * `<pp-activity-invite-dialog>`).
 * @example
 * import 'platformpp-web/components';
 * document.body.innerHTML = '<pp-platform current-user-id="…"><pp-activity-frame application-id="…" channel-id="…"></pp-activity-frame></pp-platform>';
 */
import { defineActivityFrame } from './activity-frame';
import { defineConsentDialog } from './consent-dialog';
import { definePlatformElement } from './platform-element';
import { defineActivityInviteDialog } from './activity-invite-dialog';
import { defineImageUploadDialog } from './image-upload-dialog';
import { defineShareDialog } from './share-dialog';

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
  type ServiceWorkerRestartDetail,
} from './platform-element';
export { SandboxClient, SandboxError } from './sandbox-client';
export {
  restartServiceWorker,
  watchServiceWorkerStops,
  type ServiceWorkerRestart,
} from './service-worker-restart';
export { ShareDialog, SHARE_DIALOG_TAG, defineShareDialog, requestShareTarget } from './share-dialog';
export {
  ImageUploadDialog,
  IMAGE_UPLOAD_DIALOG_TAG,
  defineImageUploadDialog,
  requestImage,
} from './image-upload-dialog';
export {
  ActivityInviteDialog,
  ACTIVITY_INVITE_DIALOG_TAG,
  defineActivityInviteDialog,
  requestInviteConfirmation,
  type ActivityInviteRequest,
} from './activity-invite-dialog';
export {
  VoiceCallController,
  voiceCallSnapshot,
  type VoiceCallSnapshot,
  type VoiceParticipantView,
} from './voice-call-controller';

definePlatformElement();
defineActivityFrame();
defineConsentDialog();
defineShareDialog();
defineImageUploadDialog();
defineActivityInviteDialog();
