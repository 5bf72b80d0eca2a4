/**
 * Whether the page can use a microphone, checked when the user joins a call, so that a refusal
 * is said in words. The game SDK joins a participant without a microphone listening only (it
 * sends silence and still hears the others), which is the right call to make but would leave a
 * person wondering why nobody hears them.
 *
 * The check asks as little as it can: a microphone the browser already allows is not opened
 * twice (the SDK opens it), one it already refuses is not asked for again (browsers answer a
 * refusal at once), and only when the browser has to ask does the check open the microphone,
 * from the click that joins, and close it again.
 */

/** What the check found. */
export type MicrophoneState = 'ready' | 'refused' | 'missing' | 'busy' | 'unavailable';

/** The outcome of a check: the state, and what to tell the user when it is not `ready`. */
export interface MicrophoneCheck {
  state: MicrophoneState;
  message: string | null;
}

const LISTENING = 'so you are in the call listening only: the others cannot hear you.';

/** The words for each state other than `ready`. */
export const MICROPHONE_MESSAGES: Record<Exclude<MicrophoneState, 'ready'>, string> = {
  refused: `The browser refused the microphone, ${LISTENING} Allow the microphone for this site in the browser's site settings, then leave the call and join again.`,
  missing: `No microphone was found, ${LISTENING} Connect one, then leave the call and join again.`,
  busy: `The microphone could not be opened (another application may be using it), ${LISTENING}`,
  unavailable: `This page cannot use a microphone (browsers allow one on https and localhost only), ${LISTENING}`,
};

const READY: MicrophoneCheck = Object.freeze({ state: 'ready', message: null });

/** A check that found `state`. */
function found(state: Exclude<MicrophoneState, 'ready'>): MicrophoneCheck {
  return { state, message: MICROPHONE_MESSAGES[state] };
}

/**
 * What a failed `getUserMedia` means for the user, by the `DOMException`'s name.
 * @example microphoneProblem(new DOMException('Permission denied', 'NotAllowedError')).state // 'refused'
 */
export function microphoneProblem(error: unknown): MicrophoneCheck {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError')
    return found('refused');
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError')
    return found('missing');
  return found('busy');
}

/** What the check reads of the browser (its own by default; tests give their own). */
export interface MicrophoneAccess {
  mediaDevices?: Pick<MediaDevices, 'getUserMedia' | 'enumerateDevices'>;
  permissions?: Pick<Permissions, 'query'>;
}

/** The browser's permission for the microphone: null where it cannot be asked (Firefox before 131, say). */
async function permission(access: MicrophoneAccess): Promise<PermissionState | null> {
  try {
    return (await access.permissions?.query({ name: 'microphone' as PermissionName }))?.state ?? null;
  } catch {
    return null;
  }
}

/**
 * Checks that a microphone can be used, asking the user when the browser has to.
 * @example
 * const mic = await checkMicrophone();
 * if (mic.message) showNotice(mic.message);
 */
export async function checkMicrophone(
  access: MicrophoneAccess = {
    mediaDevices: globalThis.navigator?.mediaDevices,
    permissions: globalThis.navigator?.permissions,
  },
): Promise<MicrophoneCheck> {
  const devices = access.mediaDevices;
  if (!devices?.getUserMedia) return found('unavailable');
  const state = await permission(access);
  if (state === 'denied') return found('refused');
  if (state === 'granted') {
    // Allowed: the SDK opens it. Only a microphone that is not there is worth saying now.
    const inputs = (await devices.enumerateDevices().catch(() => [])).filter((d) => d.kind === 'audioinput');
    return inputs.length > 0 ? READY : found('missing');
  }
  try {
    const stream = await devices.getUserMedia({ audio: true });
    for (const track of stream.getTracks()) track.stop();
    return READY;
  } catch (error) {
    return microphoneProblem(error);
  }
}
