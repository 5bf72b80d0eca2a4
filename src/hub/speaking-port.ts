/**
 * One speaking watch over a `MessagePort`: the hub's side of a page's watch of a voice call
 * (`HubApi.watchSpeaking`). Each start and stop of a speaker in the call is posted on the port
 * until the page closes the watch, or is gone.
 */
import type { SpeakingWatch } from '../gateway/voice-speaking';
import type { HoldForPage } from './gateway-port';
import type { SpeakingPortEvent, SpeakingPortRequest } from './protocol';

/**
 * Posts the speaking changes of `callId` on `port` until the page posts `{type: 'close'}`, the
 * port closes, or the page is gone (`holdForPage`).
 * @example bridgeSpeakingPort(voice.speakers, port, channelId, (abandon) => owners.hold(owner, abandon));
 */
export function bridgeSpeakingPort(
  speakers: SpeakingWatch,
  port: MessagePort,
  callId: string,
  holdForPage?: HoldForPage,
): void {
  let letGo = () => {};
  const stopWatching = speakers.watch(callId, (change: SpeakingPortEvent) => port.postMessage(change));
  const stop = () => {
    stopWatching();
    letGo();
    port.close();
  };
  port.addEventListener('message', (event: MessageEvent<SpeakingPortRequest>) => {
    if (event.data?.type === 'close') stop();
  });
  // Chromium fires `close` when the page's end is gone; the page's lock tells in every browser.
  port.addEventListener('close', stop);
  if (holdForPage) letGo = holdForPage(stop);
  port.start();
}
