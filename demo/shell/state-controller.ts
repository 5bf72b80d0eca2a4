/**
 * A lit reactive controller that re-renders its host whenever an event target it reads (the
 * client's state, the event journal...) fires `change`. The target is read through a function,
 * because the host gets it as a property after it was created; the controller follows it.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * @example readonly #state = new StateController(this, () => this.client?.state);
 */
export class StateController implements ReactiveController {
  #target: EventTarget | undefined;
  #connected = false;
  readonly #onChange = () => this.host.requestUpdate();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly target: () => EventTarget | null | undefined,
    private readonly eventName = 'change',
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#connected = true;
    this.#follow();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#target?.removeEventListener(this.eventName, this.#onChange);
    this.#target = undefined;
  }

  /** Before each update: the host's property may now name another target. */
  hostUpdate(): void {
    this.#follow();
  }

  #follow(): void {
    const next = this.#connected ? (this.target() ?? undefined) : undefined;
    if (next === this.#target) return;
    this.#target?.removeEventListener(this.eventName, this.#onChange);
    this.#target = next;
    next?.addEventListener(this.eventName, this.#onChange);
  }
}
