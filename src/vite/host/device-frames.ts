/**
 * Device frames: the size an activity gets on the platform's clients, and the safe-area insets
 * the platform's mobile client gives it. The mobile client sets them on the activity page's root
 * element as the CSS variables `--discord-safe-area-inset-top`, `-right`, `-bottom` and `-left`
 * (pixels), after each load of the page; the host page does the same to the frame's document,
 * which it can reach because the activity is served from this origin. A phone or tablet launches
 * the activity on the mobile platform (`platform=mobile`, with `mobile_app_version`).
 */
import type { ActivityFrame } from '../../components/activity-frame';
import type { ActivityPlatform } from '../../rpc/protocol';

/** The safe-area insets, in CSS pixels. */
export interface SafeAreaInsets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** A device the cockpit can show the activity on. */
export interface DevicePreset {
  label: string;
  /** The activity's viewport, or null to fill the stage (the desktop client's window). */
  size: { width: number; height: number } | null;
  platform: ActivityPlatform;
  insets: SafeAreaInsets;
}

const NONE: SafeAreaInsets = { top: 0, right: 0, bottom: 0, left: 0 };

/** The devices, by id. Sizes are common phone and tablet viewports; insets a notched phone's. */
export const DEVICES = {
  desktop: { label: 'Desktop', size: null, platform: 'desktop', insets: NONE },
  'phone-portrait': {
    label: 'Phone, portrait',
    size: { width: 390, height: 844 },
    platform: 'mobile',
    insets: { top: 47, right: 0, bottom: 34, left: 0 },
  },
  'phone-landscape': {
    label: 'Phone, landscape',
    size: { width: 844, height: 390 },
    platform: 'mobile',
    insets: { top: 0, right: 47, bottom: 21, left: 47 },
  },
  tablet: {
    label: 'Tablet',
    size: { width: 820, height: 1180 },
    platform: 'mobile',
    insets: { top: 24, right: 0, bottom: 20, left: 0 },
  },
} as const satisfies Record<string, DevicePreset>;

/** A device's id. */
export type DeviceId = keyof typeof DEVICES;

/** The names of the CSS variables, by side. */
export const SAFE_AREA_VARIABLES: Record<keyof SafeAreaInsets, string> = {
  top: '--discord-safe-area-inset-top',
  right: '--discord-safe-area-inset-right',
  bottom: '--discord-safe-area-inset-bottom',
  left: '--discord-safe-area-inset-left',
};

/**
 * Sets the insets on the activity page's root element. A page of another origin cannot be
 * reached: then nothing is set and false is answered.
 */
export function applySafeArea(frame: ActivityFrame, insets: SafeAreaInsets): boolean {
  let root: HTMLElement | undefined;
  try {
    root = frame.iframe?.contentDocument?.documentElement;
  } catch {
    return false;
  }
  if (!root) return false;
  for (const side of Object.keys(SAFE_AREA_VARIABLES) as (keyof SafeAreaInsets)[])
    root.style.setProperty(SAFE_AREA_VARIABLES[side], `${insets[side]}px`);
  return true;
}

/**
 * Puts the activity of `frame` (inside `screen`, its device's screen) on `device`: the screen's
 * size, the platform (a change restarts the activity, as switching devices would), and the
 * insets after each load of the activity's page. Returns the function that stops following loads.
 * @example const stop = showOnDevice(screen, frame, 'phone-portrait');
 */
export function showOnDevice(screen: HTMLElement, frame: ActivityFrame, device: DeviceId): () => void {
  const preset: DevicePreset = DEVICES[device];
  screen.dataset.device = device;
  screen.style.width = preset.size ? `${preset.size.width}px` : '';
  screen.style.height = preset.size ? `${preset.size.height}px` : '';
  if (frame.platform !== preset.platform) frame.platform = preset.platform;
  const apply = () => void applySafeArea(frame, preset.insets);
  // The iframe lives in the frame's shadow root; its `load` does not cross it, but is heard there.
  const root = frame.renderRoot;
  root.addEventListener('load', apply, true);
  apply();
  return () => root.removeEventListener('load', apply, true);
}
