/**
 * The activity SDK wired to a host without a browser: messages the SDK posts reach `toHost`,
 * and `fromHost` delivers a message to the SDK as the host window would.
 */
import { ActivitySdk, type ActivitySdkOptions } from '../../../src/activity';

/** The origin of the fake host page. */
export const HOST_ORIGIN = 'http://host.test';

/** A window-like object: its postMessage hands messages to `deliver`. */
export function fakeWindow(deliver: (data: unknown, targetOrigin: string) => void): Window {
  return {
    postMessage: (data: unknown, targetOrigin: string) => deliver(structuredClone(data), targetOrigin),
  } as unknown as Window;
}

/** An SDK in a frame with the given query, and a way to answer it as the host. */
export function createSdk(
  options: {
    clientId?: string;
    search?: string;
    sdk?: ActivitySdkOptions;
    toHost?: (data: any, targetOrigin: string) => void;
  } = {},
) {
  const receiver = new EventTarget();
  const posted: { data: any; targetOrigin: string }[] = [];
  const host = fakeWindow((data, targetOrigin) => {
    posted.push({ data, targetOrigin });
    options.toHost?.(data, targetOrigin);
  });
  const fromHost = (data: unknown, from: { source?: unknown; origin?: string } = {}) => {
    const event = Object.assign(new Event('message'), {
      data,
      source: from.source ?? host,
      origin: from.origin ?? HOST_ORIGIN,
    });
    receiver.dispatchEvent(event);
  };
  const sdk = new ActivitySdk(options.clientId ?? '100', {
    search:
      options.search ?? '?frame_id=f1&instance_id=i-1&platform=desktop&guild_id=1&channel_id=2&location_id=gc-1-2',
    host,
    hostOrigin: HOST_ORIGIN,
    receiver: receiver as unknown as Window,
    ...options.sdk,
  });
  return { sdk, posted, fromHost, host };
}
