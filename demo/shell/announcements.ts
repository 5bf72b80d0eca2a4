/**
 * A lit controller that hears the platform's announcements (the BroadcastChannel the service
 * worker tells every page on: "the clock changed", "the sandbox was reset", "new events").
 * The message only says "look again": the host reads the state itself.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { ANNOUNCEMENT_CHANNEL, type Announcement } from '../../src/platform/core/announcements';

/**
 * @example new AnnouncementController(this, (a) => a.type === 'clock' && this.reload());
 */
export class AnnouncementController implements ReactiveController {
  #channel: BroadcastChannel | null = null;

  constructor(
    host: ReactiveControllerHost,
    private readonly onAnnouncement: (announcement: Announcement) => void,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#channel = new BroadcastChannel(ANNOUNCEMENT_CHANNEL);
    this.#channel.onmessage = (event: MessageEvent<Announcement>) => this.onAnnouncement(event.data);
  }

  hostDisconnected(): void {
    this.#channel?.close();
    this.#channel = null;
  }
}
