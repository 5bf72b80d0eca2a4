/**
 * JSON text parsed with its large integers exact (CONTRACT §2: an id may come as a JSON number,
 * and ids exceed 2^53, where `JSON.parse` rounds). An integer literal beyond 2^53 becomes a
 * `bigint` holding the digits of the text; every other value is what `JSON.parse` gives. The
 * snowflake schema takes the `bigint` as its exact decimal string; other integer fields, whose
 * bounds are all within 2^53, refuse it as they refused the rounded number.
 *
 * Most texts hold no such integer: one native regex over the text (no run of 16 digits, inside
 * strings or not) sends them to `JSON.parse` alone. Otherwise the integers are found in one pass
 * over the text, and read exactly from their source: through the reviver's `context.source`
 * where the engine gives it (workerd, Chromium 114+), else by quoting them first under a marker
 * no sent string can hold.
 */

/** Roots of parsed values that hold a `bigint` (so that a caller may turn leftovers back into numbers). */
const exactRoots = new WeakSet<object>();

/** A reviver as engines with JSON.parse source text access call it. */
type SourceReviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

/** Whether `JSON.parse` gives a reviver each primitive's source text. */
const HAS_SOURCE = (() => {
  let source: string | undefined;
  const reviver: SourceReviver = (_key, value, context) => {
    source = context?.source;
    return value;
  };
  JSON.parse('1', reviver as (key: string, value: unknown) => unknown);
  return source === '1';
})();

const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;

/**
 * The spans `[start, end)` of the integer literals outside strings whose value `JSON.parse`
 * would round (beyond ±(2^53 - 1)). A literal with a fraction or an exponent is a number, not an id.
 */
function unsafeIntegerSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === BACKSLASH) i++;
      else if (ch === QUOTE) inString = false;
      continue;
    }
    if (ch === QUOTE) {
      inString = true;
      continue;
    }
    if (ch !== MINUS && (ch < DIGIT_0 || ch > DIGIT_9)) continue;
    const start = i;
    if (ch === MINUS) i++;
    while (i < text.length && text.charCodeAt(i) >= DIGIT_0 && text.charCodeAt(i) <= DIGIT_9) i++;
    const next = text.charCodeAt(i);
    const integer = next !== 0x2e && next !== 0x65 && next !== 0x45; // no '.', 'e', 'E'
    while (i < text.length && /[0-9.eE+-]/.test(text[i])) i++;
    if (integer && i - start >= 16 && !Number.isSafeInteger(Number(text.slice(start, i)))) spans.push([start, i]);
    i--;
  }
  return spans;
}

/** A marker that starts no string of this request: a private-use character and 96 random bits. */
function freshMarker(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `\uE000${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}:`;
}

/** Parses with the unsafe integers at `spans` quoted under a marker, then turned into bigints. */
function parseQuoted(text: string, spans: [number, number][]): unknown {
  const marker = freshMarker();
  let quoted = '';
  let at = 0;
  for (const [start, end] of spans) {
    quoted += `${text.slice(at, start)}"${marker}${text.slice(start, end)}"`;
    at = end;
  }
  quoted += text.slice(at);
  return JSON.parse(quoted, (_key, value) =>
    typeof value === 'string' && value.startsWith(marker) ? BigInt(value.slice(marker.length)) : value,
  );
}

/** Parses with the reviver reading each unsafe integer's source text. */
function parseWithSource(text: string): unknown {
  const reviver: SourceReviver = (_key, value, context) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && context?.source && /^-?\d+$/.test(context.source)
      ? BigInt(context.source)
      : value;
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
}

/**
 * `JSON.parse(text)`, except that an integer literal beyond 2^53 is a `bigint` of its exact
 * digits. Throws `SyntaxError` as `JSON.parse` does.
 * @example parseExactJson('{"message_id": 1311830588542947409}') // { message_id: 1311830588542947409n }
 */
export function parseExactJson(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  const spans = unsafeIntegerSpans(text);
  if (spans.length === 0) return JSON.parse(text);
  const value = HAS_SOURCE ? parseWithSource(text) : parseQuoted(text, spans);
  if (typeof value === 'object' && value !== null) exactRoots.add(value);
  return value;
}

/** Whether `value` was parsed by {@link parseExactJson} and holds a `bigint`. */
export function holdsExactIntegers(value: unknown): boolean {
  return typeof value === 'object' && value !== null && exactRoots.has(value);
}

/**
 * `value` with every `bigint` left in it turned into the number `JSON.parse` would have given:
 * what a schema passed through unread (a free-form field) is stored as before.
 */
export function withPlainNumbers<T>(value: T): T {
  if (typeof value === 'bigint') return Number(value) as T;
  if (Array.isArray(value)) return value.map(withPlainNumbers) as T;
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    // fromEntries defines each key, so a `__proto__` key stays a key.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withPlainNumbers(item)])) as T;
  }
  return value;
}
