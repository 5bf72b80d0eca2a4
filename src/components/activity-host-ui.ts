/**
 * The host page's part of the RPC for `<pp-activity-frame>`: the consent dialog, the image
 * upload, share and activity invite dialogs, links, invite and share requests, the activity's
 * log, device facts. Requests the page may want to handle
 * itself arrive as events on the frame element; a cancelable one the page cancels is refused.
 */
import type { FrameInfo, HostUi } from '../rpc/context';
import { requestInviteConfirmation } from './activity-invite-dialog';
import { requestConsent } from './consent-dialog';
import { requestImage } from './image-upload-dialog';
import { requestShareTarget } from './share-dialog';

/** Events `<pp-activity-frame>` fires for the activity's requests (all bubble and compose). */
export interface ActivityFrameEventMap {
  /** OPEN_EXTERNAL_LINK: cancel it to refuse; otherwise the link opens in a new tab. */
  'pp-open-external-link': CustomEvent<{ url: string }>;
  /** OPEN_INVITE_DIALOG: the host page shows its invite UI for the frame's channel. */
  'pp-open-invite-dialog': CustomEvent<{
    application_id: string;
    guild_id: string | null;
    channel_id: string;
    instance_id: string;
  }>;
  /** SHARE_LINK: cancel it to refuse; otherwise the link is copied to the clipboard. */
  'pp-share-link': CustomEvent<{ message: string; custom_id?: string; link_id?: string; url: string }>;
  /** CAPTURE_LOG: a line the activity logged (tokens redacted). */
  'pp-activity-log': CustomEvent<{ level: string; message: string }>;
  /** A share the user confirmed (OPEN_SHARE_MOMENT_DIALOG) could not be posted: the platform's refusal. */
  'pp-rpc-error': CustomEvent<{ cmd: string; code: number; message: string }>;
}

/** Whether WebGL runs on a GPU rather than a software rasterizer. */
function hardwareAccelerated(): boolean {
  const gl = document.createElement('canvas').getContext('webgl');
  if (!gl) return false;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  return !/swiftshader|llvmpipe|software|basic render/i.test(renderer);
}

/**
 * The page's {@link HostUi} for the frame element `element`.
 * @example new RpcHost({ ..., ui: createHostUi(this) })
 */
export function createHostUi(
  element: HTMLElement & { locale?: string | null; confirmPurchase?: HostUi['confirmPurchase'] | null },
): HostUi {
  const fire = <K extends keyof ActivityFrameEventMap>(
    type: K,
    detail: ActivityFrameEventMap[K]['detail'],
    cancelable = false,
  ) => element.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
  return {
    requestConsent: (options) => requestConsent(options),
    async openExternalLink(url) {
      if (!fire('pp-open-external-link', { url }, true)) return false;
      // With noopener the browser hands back no window, so whether it opened cannot be known.
      window.open(url, '_blank', 'noopener,noreferrer');
      return null;
    },
    async openInviteDialog(frame: FrameInfo) {
      fire('pp-open-invite-dialog', {
        application_id: frame.application_id,
        guild_id: frame.guild_id,
        channel_id: frame.channel_id,
        instance_id: frame.instance_id,
      });
    },
    async shareLink(request) {
      if (!fire('pp-share-link', request, true)) return { success: false, didCopyLink: false, didSendMessage: false };
      const copied = await navigator.clipboard?.writeText(request.url).then(
        () => true,
        () => false, // No clipboard permission (a page without focus, a test browser): not copied.
      );
      return { success: copied === true, didCopyLink: copied === true, didSendMessage: false };
    },
    captureLog(level, message) {
      fire('pp-activity-log', { level, message });
    },
    async hardwareAcceleration() {
      return hardwareAccelerated();
    },
    locale: () => element.locale || navigator.language,
    // Read at each purchase: the page may set or change the dialog while the activity runs.
    get confirmPurchase() {
      return element.confirmPurchase ?? undefined;
    },
    pickImage: ({ application }) => requestImage(application),
    chooseShareTarget: (request) => requestShareTarget(request),
    confirmActivityInvite: (request) => requestInviteConfirmation(request),
    backgroundError(cmd, error) {
      console.error(`platformpp: ${cmd} failed after it answered: ${error.message}`);
      fire('pp-rpc-error', { cmd, ...error });
    },
  };
}
