/**
 * How shell components tell the page something failed: a `demo-error` event that `<demo-app>`
 * shows in its alert region, with the platform's answer in words. Nothing is swallowed.
 */
import { SandboxError } from '../../src/components/sandbox-client';
import { describeRefusal } from '../shared/api';

/** The detail of a `demo-error` event. */
export interface DemoErrorDetail {
  /** What the user was doing: "Sending the message". */
  what: string;
  /** Why it failed, in words. */
  message: string;
}

/** The words for an error of the platform, the sandbox or the browser. */
export function errorMessage(error: unknown): string {
  if (error instanceof SandboxError) return describeRefusal(error.status, error.body).message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * Fires `demo-error` from `source` (it bubbles out of shadow roots to `<demo-app>`).
 * @example await client.sendMessage(id, text).catch((e) => reportError(this, 'Sending the message', e));
 */
export function reportError(source: EventTarget, what: string, error: unknown): void {
  // Also on the console, where a developer looks first.
  console.error(`platformpp demo: ${what} failed`, error);
  source.dispatchEvent(
    new CustomEvent<DemoErrorDetail>('demo-error', {
      detail: { what, message: errorMessage(error) },
      bubbles: true,
      composed: true,
    }),
  );
}
