/**
 * SDK logging (spec, Authentication rule 9): every line goes through `redactSecrets` and the
 * literal values of the tokens the client holds, so no bearer token reaches a log callback at
 * any severity; a release build delivers only Warning and Error, a debug build also Info and
 * Verbose.
 */
import { redactSecrets } from '../platform/core/secrets';

/** Log severities, as the platform SDK numbers them (`None` switches a callback off). */
export const LoggingSeverity = {
  Verbose: 1,
  Info: 2,
  Warning: 3,
  Error: 4,
  None: 5,
} as const;

/** One of {@link LoggingSeverity}. */
export type LoggingSeverity = (typeof LoggingSeverity)[keyof typeof LoggingSeverity];

/** A release build logs Warning and Error only; a debug build logs every severity. */
export type SdkBuild = 'release' | 'debug';

/** Receives one redacted log line and its severity. */
export type LogCallback = (message: string, severity: LoggingSeverity) => void;

/** Shorter than any token the platform issues, so a short literal is never mistaken for one. */
const MIN_SECRET_LENGTH = 8;

/**
 * The client's log: callbacks with their minimum severity, the build's floor, and the secrets to
 * scrub.
 * @example
 * const log = new SdkLogger('debug');
 * log.addCallback((line, severity) => console.log(severity, line), LoggingSeverity.Info);
 * log.info('connected');
 */
export class SdkLogger {
  readonly #callbacks: { callback: LogCallback; min: LoggingSeverity }[] = [];
  readonly #secrets = new Set<string>();

  constructor(readonly build: SdkBuild = 'release') {}

  /** The lowest severity this build delivers at all. */
  get floor(): LoggingSeverity {
    return this.build === 'debug' ? LoggingSeverity.Verbose : LoggingSeverity.Warning;
  }

  /** Adds a callback for lines at `min` and above (and at or above the build's floor). */
  addCallback(callback: LogCallback, min: LoggingSeverity): void {
    this.#callbacks.push({ callback, min });
  }

  /** Remembers a secret value (a token the client holds) so that it is scrubbed from every line. */
  addSecret(value: string | null | undefined): void {
    if (value && value.length >= MIN_SECRET_LENGTH) this.#secrets.add(value);
  }

  /** The line as callbacks receive it: known secrets and anything shaped like a token removed. */
  redact(message: string): string {
    let line = message;
    for (const secret of this.#secrets) line = line.split(secret).join('[redacted]');
    return redactSecrets(line);
  }

  /** Delivers a line to every callback that wants it. A throwing callback does not stop the others. */
  log(severity: LoggingSeverity, message: string): void {
    if (severity < this.floor || severity >= LoggingSeverity.None) return;
    const targets = this.#callbacks.filter((c) => severity >= c.min && c.min < LoggingSeverity.None);
    if (targets.length === 0) return;
    const line = this.redact(message);
    for (const { callback } of targets) {
      try {
        callback(line, severity);
      } catch {
        // A log callback must not break the operation that logged.
      }
    }
  }

  /** Logs at Verbose (debug builds only). */
  verbose(message: string): void {
    this.log(LoggingSeverity.Verbose, message);
  }

  /** Logs at Info (debug builds only). */
  info(message: string): void {
    this.log(LoggingSeverity.Info, message);
  }

  /** Logs at Warning. */
  warning(message: string): void {
    this.log(LoggingSeverity.Warning, message);
  }

  /** Logs at Error. */
  error(message: string): void {
    this.log(LoggingSeverity.Error, message);
  }
}
