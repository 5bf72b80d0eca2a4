/**
 * The user's audio settings of the game SDK (`Client::GetInputDevices`, `SetInputDevice`,
 * `SetInputVolume`, `SetOutputVolume`...): which microphone and which speakers the calls use,
 * and how loud, shared by every call of the client. Devices are the browser's
 * (`navigator.mediaDevices`); their names are empty until the page was allowed a microphone,
 * as browsers keep them private until then.
 */
import type { AudioPreferences } from '../media/call-media';
import { SDK_INPUT_VOLUME_MAX, SDK_OUTPUT_VOLUME_MAX } from '../platform/core/limits';
import { SdkError } from './errors';

/** An input or output device (`AudioDevice`): its id, its name, and whether it is the system's default. */
export interface AudioDevice {
  id: string;
  name: string;
  isDefault: boolean;
}

/** The id that stands for the system's default device. */
export const DEFAULT_AUDIO_DEVICE_ID = 'default';

type DeviceKind = 'audioinput' | 'audiooutput';

/** The browser's devices of `kind`; the default first (Chromium lists it as `default`, other browsers first). */
export async function listAudioDevices(kind: DeviceKind): Promise<AudioDevice[]> {
  if (typeof navigator === 'undefined' || !navigator.mediaDevices?.enumerateDevices)
    throw SdkError.validation('This environment has no audio devices (navigator.mediaDevices).');
  const devices = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === kind);
  const hasDefault = devices.some((d) => d.deviceId === DEFAULT_AUDIO_DEVICE_ID);
  return devices.map((device, index) => ({
    id: device.deviceId,
    name: device.label,
    isDefault: hasDefault ? device.deviceId === DEFAULT_AUDIO_DEVICE_ID : index === 0,
  }));
}

/** The client's audio settings. */
export class ClientAudio {
  #preferences: AudioPreferences = {
    inputDeviceId: DEFAULT_AUDIO_DEVICE_ID,
    outputDeviceId: DEFAULT_AUDIO_DEVICE_ID,
    inputVolume: SDK_INPUT_VOLUME_MAX,
    outputVolume: 100,
  };

  /** @param changed told of every change, so that the calls follow. */
  constructor(private readonly changed: (preferences: AudioPreferences) => void) {}

  /** The settings now. */
  get preferences(): AudioPreferences {
    return { ...this.#preferences };
  }

  /** The device of `kind` now in use. */
  async current(kind: DeviceKind): Promise<AudioDevice> {
    const id = kind === 'audioinput' ? this.#preferences.inputDeviceId : this.#preferences.outputDeviceId;
    const devices = await listAudioDevices(kind).catch(() => []);
    return devices.find((d) => d.id === id) ?? { id, name: '', isDefault: id === DEFAULT_AUDIO_DEVICE_ID };
  }

  /** Uses the device `id` of `kind` (one `listAudioDevices` lists); an unknown id is a validation error. */
  async use(kind: DeviceKind, id: string): Promise<void> {
    if (typeof id !== 'string' || id === '') throw SdkError.validation('A device id is a non-empty string.');
    const devices = await listAudioDevices(kind);
    if (id !== DEFAULT_AUDIO_DEVICE_ID && !devices.some((d) => d.id === id))
      throw SdkError.validation(`No ${kind === 'audioinput' ? 'input' : 'output'} device has the id ${id}.`);
    this.#set(kind === 'audioinput' ? { inputDeviceId: id } : { outputDeviceId: id });
  }

  /** Microphone volume, 0 to 100. */
  setInputVolume(volume: number): void {
    this.#set({ inputVolume: checkRange(volume, SDK_INPUT_VOLUME_MAX, 'setInputVolume') });
  }

  /** Speaker volume, 0 to 200. */
  setOutputVolume(volume: number): void {
    this.#set({ outputVolume: checkRange(volume, SDK_OUTPUT_VOLUME_MAX, 'setOutputVolume') });
  }

  #set(change: Partial<AudioPreferences>): void {
    this.#preferences = { ...this.#preferences, ...change };
    this.changed(this.preferences);
  }
}

function checkRange(volume: unknown, max: number, operation: string): number {
  if (typeof volume !== 'number' || !(volume >= 0 && volume <= max))
    throw SdkError.validation(`${operation}() takes a volume from 0 to ${max}.`);
  return volume;
}
