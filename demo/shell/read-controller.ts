/**
 * A lit controller for a view that shows one conversation: while the view is on screen in a
 * visible tab, what it shows is read (the read mark moves to its newest message); and it keeps
 * the first message that was unread when the conversation was opened, for the log's "New" line
 * (messages that arrive while it is open are read as they come).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ConversationKey, ReadMarks } from './read-marks';
import type { WireMessage } from './wire';

/** What the controller reads from its view on every update. */
export interface ShownConversation {
  reads: ReadMarks;
  key: ConversationKey;
  messages: readonly WireMessage[];
  /** The user, whose own messages are never unread. */
  me: string;
}

/**
 * @example readonly #read = new ReadController(this, () => ({ reads: client.reads, key: `lobby:${id}`, messages }));
 */
export class ReadController implements ReactiveController {
  #openedKey: ConversationKey | null = null;
  #mark = '';
  #settled = false;
  /** The first message that was unread when the conversation was opened (its history read). */
  firstUnread: string | undefined = undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly shown: () => ShownConversation | null,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.#onVisibility);
  }

  /**
   * Before each render: a newly opened conversation keeps its read mark; the first render with
   * messages finds the first unread one there, once.
   */
  hostUpdate(): void {
    const shown = this.shown();
    if (!shown) return;
    if (shown.key !== this.#openedKey) {
      this.#openedKey = shown.key;
      this.#mark = shown.reads.mark(shown.key);
      this.#settled = false;
      this.firstUnread = undefined;
    }
    if (this.#settled || shown.messages.length === 0) return;
    this.#settled = true;
    this.firstUnread = shown.reads.unread(shown.key, shown.messages, shown.me, this.#mark)[0]?.id;
  }

  /** After each render: what is on screen in a visible tab is read. */
  hostUpdated(): void {
    const shown = this.shown();
    const newest = shown?.messages.at(-1);
    if (shown && newest && document.visibilityState === 'visible') shown.reads.read(shown.key, newest.id);
  }

  readonly #onVisibility = (): void => this.host.requestUpdate();
}
