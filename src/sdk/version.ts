/**
 * The SDK's version and the platform's support window (spec, Versioning rule 1): releases are
 * `<major>.<minor>.<build>`; from minor 1.10 the window is the five most recent minors, 1.6
 * through 1.10, and 1.5 and earlier are end-of-life.
 */
import { SdkError } from './errors';

/** This SDK's own version. */
export const SDK_VERSION = { major: 1, minor: 10, build: 0 } as const;

/** The oldest supported minor of major 1 while 1.10 is the newest. */
export const SDK_OLDEST_SUPPORTED_MINOR = 6;

/** A parsed `<major>.<minor>.<build>`. */
export interface SdkVersion {
  major: number;
  minor: number;
  build: number;
}

/** Why a version is refused, or null when it is supported. */
export type SdkVersionVerdict = { supported: true; version: SdkVersion } | { supported: false; reason: string };

/** Exactly three dot-separated numbers: a release always names its build. */
const VERSION = /^(\d{1,4})\.(\d{1,4})\.(\d{1,9})$/;

/** The one shape every refusal of malformed input names. */
const EXPECTED_FORM = 'of the form <major>.<minor>.<build>, for example "1.10.0"';

/** What a non-string input is, for the message (never its value: it may be anything). */
function describeInput(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** `1.10.0`. */
export function formatSdkVersion(version: SdkVersion = SDK_VERSION): string {
  return `${version.major}.${version.minor}.${version.build}`;
}

/**
 * Tells whether a game built against SDK `version` is within the support window.
 * @example checkSdkVersion('1.5.3') // { supported: false, reason: 'SDK 1.5.3 is end-of-life: ...' }
 * @example checkSdkVersion('1.8.2').supported // true
 */
export function checkSdkVersion(version: unknown): SdkVersionVerdict {
  // Callers from JavaScript may pass anything: malformed input is a verdict, never a TypeError.
  if (typeof version !== 'string')
    return {
      supported: false,
      reason: `The SDK version must be a string ${EXPECTED_FORM}; got ${describeInput(version)}.`,
    };
  const match = VERSION.exec(version.trim());
  if (!match)
    return {
      supported: false,
      reason: `${JSON.stringify(version.slice(0, 40))} is not an SDK version ${EXPECTED_FORM}.`,
    };
  const parsed = { major: Number(match[1]), minor: Number(match[2]), build: Number(match[3]) };
  const current = formatSdkVersion();
  const window = `${SDK_VERSION.major}.${SDK_OLDEST_SUPPORTED_MINOR} through ${SDK_VERSION.major}.${SDK_VERSION.minor}`;
  const newer =
    parsed.major > SDK_VERSION.major || (parsed.major === SDK_VERSION.major && parsed.minor > SDK_VERSION.minor);
  if (newer)
    return {
      supported: false,
      reason: `SDK ${version.trim()} is newer than this SDK (${current}); supported versions are ${window}.`,
    };
  if (parsed.major < SDK_VERSION.major || parsed.minor < SDK_OLDEST_SUPPORTED_MINOR) {
    return {
      supported: false,
      reason: `SDK ${version.trim()} is end-of-life: the support window is the five most recent minor versions, ${window}. Build the game against SDK ${SDK_VERSION.major}.${SDK_OLDEST_SUPPORTED_MINOR} or later.`,
    };
  }
  return { supported: true, version: parsed };
}

/**
 * Throws a ValidationError naming the support window unless `version` is supported.
 * @example assertSupportedSdkVersion('1.6.0') // ok
 */
export function assertSupportedSdkVersion(version: unknown): SdkVersion {
  const verdict = checkSdkVersion(version);
  if (!verdict.supported) throw SdkError.validation(verdict.reason);
  return verdict.version;
}
