/**
 * Records as text: JSON for what JSON holds, a tagged object for the structured-clone values it
 * does not (undefined inside arrays, NaN and the infinities, -0, Date, Map, Set, BigInt, bytes,
 * `Blob`s, `CryptoKey`s), so that a record read back from SQLite equals the one written, as a
 * record read back from IndexedDB does.
 *
 * A `Blob` is stored as its bytes (base64) and type; a `CryptoKey` as its JWK with its algorithm
 * and usages, and is imported again as a non-extractable key when read, so that nothing that
 * reads the store can export it. A new key can only be written if it is extractable: an engine
 * over this codec says so (`StorageEngine.cryptoKeys`), and the code that makes keys to store
 * asks it (`Storage.keysMustBeExtractable`). A key read from the store can be written again (a
 * record read, changed and put back): the codec remembers the stored form of every key it
 * imported. Any other non-extractable key fails the write with `DataCloneError`, as IndexedDB
 * fails a value it cannot clone.
 *
 * Encoding is synchronous unless the value holds a `Blob` or a `CryptoKey` (whose contents are
 * only read asynchronously); decoding likewise unless it holds a `CryptoKey`.
 */

/** The property a tagged object is recognised by; records never use it. */
const TAG = '\u0000t';

type Tagged = { [TAG]: string; v?: unknown };

/** Contents of values that are only read asynchronously, found before the value is written. */
type Resolved = Map<object, unknown>;

/** The JWK each key imported from the store was stored as, so it can be stored again. */
const storedKeys = new WeakMap<CryptoKey, JsonWebKey>();

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const isBlob = (value: object): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob;
const isCryptoKey = (value: object): value is CryptoKey =>
  typeof CryptoKey !== 'undefined' && value instanceof CryptoKey;

/** Typed-array constructors by name, to read bytes back as the view they were written as. */
const VIEWS: Record<string, new (buffer: ArrayBuffer) => ArrayBufferView> = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
  DataView,
};

/** Starts reading the contents of every Blob and CryptoKey in `value`. */
function collectAsync(value: unknown, pending: Promise<void>[], resolved: Resolved, seen: Set<object>): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (isBlob(value)) {
    pending.push(value.arrayBuffer().then((buffer) => void resolved.set(value, new Uint8Array(buffer))));
  } else if (isCryptoKey(value)) {
    const stored = storedKeys.get(value);
    if (stored) {
      resolved.set(value, stored);
      return;
    }
    if (!value.extractable) {
      throw new DOMException(
        'A non-extractable CryptoKey cannot be stored by this engine: make it extractable (see Storage.keysMustBeExtractable).',
        'DataCloneError',
      );
    }
    pending.push(crypto.subtle.exportKey('jwk', value).then((jwk) => void resolved.set(value, jwk)));
  } else if (value instanceof Map) {
    for (const [k, v] of value) {
      collectAsync(k, pending, resolved, seen);
      collectAsync(v, pending, resolved, seen);
    }
  } else if (Array.isArray(value) || value instanceof Set) {
    for (const item of value) collectAsync(item, pending, resolved, seen);
  } else if (!ArrayBuffer.isView(value) && !(value instanceof ArrayBuffer) && !(value instanceof Date)) {
    for (const item of Object.values(value)) collectAsync(item, pending, resolved, seen);
  }
}

/** The JSON-ready form of `value`. */
function toJson(value: unknown, resolved: Resolved): unknown {
  switch (typeof value) {
    case 'number':
      if (Number.isFinite(value) && !Object.is(value, -0)) return value;
      return { [TAG]: 'n', v: Object.is(value, -0) ? '-0' : String(value) };
    case 'undefined':
      return { [TAG]: 'u' };
    case 'bigint':
      return { [TAG]: 'bi', v: value.toString() };
    case 'object':
      break;
    case 'function':
    case 'symbol':
      throw new DOMException(`A ${typeof value} cannot be stored.`, 'DataCloneError');
    default:
      return value;
  }
  if (value === null) return null;
  if (Array.isArray(value)) return value.map((item) => toJson(item, resolved));
  if (value instanceof Date) return { [TAG]: 'd', v: value.getTime() };
  if (value instanceof ArrayBuffer) return { [TAG]: 'ab', v: toBase64(new Uint8Array(value)) };
  if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return { [TAG]: 'view', k: value.constructor.name, v: toBase64(bytes) };
  }
  if (value instanceof Map)
    return { [TAG]: 'map', v: [...value].map(([k, v]) => [toJson(k, resolved), toJson(v, resolved)]) };
  if (value instanceof Set) return { [TAG]: 'set', v: [...value].map((item) => toJson(item, resolved)) };
  if (isBlob(value)) {
    return { [TAG]: 'blob', type: value.type, v: toBase64(resolved.get(value) as Uint8Array) };
  }
  if (isCryptoKey(value)) {
    return {
      [TAG]: 'key',
      algorithm: toJson(value.algorithm, resolved),
      usages: value.usages,
      v: resolved.get(value),
    };
  }
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) out[name] = toJson(item, resolved);
  // A record that happens to use the tag's name is wrapped, so it is never read as a tagged value.
  return TAG in out ? { [TAG]: 'o', v: out } : out;
}

/** How deep {@link isPlainJson} looks before it leaves a value to the full encoding. */
const PLAIN_DEPTH = 64;

/**
 * Whether `JSON.stringify(value)` is already its stored text (what {@link toJson} returns for it
 * is equal to it): strings, booleans, null, finite numbers other than -0, and arrays and plain
 * objects (without the tag's name) of those, no deeper than `depth`. Anything else (undefined,
 * a class instance, a `toJSON`, a cycle) is left to the full encoding.
 */
function isPlainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth === 0) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Array.prototype) {
    const items = value as unknown[];
    for (let i = 0; i < items.length; i++) if (!isPlainJson(items[i], depth - 1)) return false;
    return true;
  }
  if ((prototype !== Object.prototype && prototype !== null) || Object.hasOwn(value, TAG)) return false;
  const record = value as Record<string, unknown>;
  for (const name in record) if (!Object.hasOwn(record, name) || !isPlainJson(record[name], depth - 1)) return false;
  return true;
}

/**
 * The stored text of a record: a string at once, or a promise when it holds a Blob or a
 * CryptoKey. Throws (or rejects with) a `DataCloneError` for what cannot be stored.
 * @example const text = encodeValue({ id: '1', data: new Blob(['x']) }); await text;
 */
export function encodeValue(value: unknown): string | Promise<string> {
  // Most records are JSON as they are: one walk that allocates nothing says so.
  if (isPlainJson(value, PLAIN_DEPTH)) return JSON.stringify(value);
  const pending: Promise<void>[] = [];
  const resolved: Resolved = new Map();
  collectAsync(value, pending, resolved, new Set());
  if (pending.length === 0) return JSON.stringify(toJson(value, resolved));
  return Promise.all(pending).then(() => JSON.stringify(toJson(value, resolved)));
}

/** Where a CryptoKey goes once it is imported. */
class KeyHolder {
  key?: CryptoKey;
}

/** Reads back what {@link toJson} wrote; CryptoKeys are imported later (`keys`). */
function fromJson(json: unknown, keys: Promise<void>[]): unknown {
  if (json === null || typeof json !== 'object') return json;
  if (Array.isArray(json)) return json.map((item) => fromJson(item, keys));
  const record = json as Record<string, unknown>;
  if (!(TAG in record)) {
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(record)) out[name] = fromJson(item, keys);
    return out;
  }
  const tagged = record as Tagged & Record<string, unknown>;
  switch (tagged[TAG]) {
    case 'u':
      return undefined;
    case 'n':
      return Number(tagged.v);
    case 'bi':
      return BigInt(tagged.v as string);
    case 'd':
      return new Date(tagged.v as number);
    case 'ab':
      return fromBase64(tagged.v as string).buffer;
    case 'view':
      return new VIEWS[tagged.k as string](fromBase64(tagged.v as string).buffer);
    case 'map':
      return new Map((tagged.v as [unknown, unknown][]).map(([k, v]) => [fromJson(k, keys), fromJson(v, keys)]));
    case 'set':
      return new Set((tagged.v as unknown[]).map((item) => fromJson(item, keys)));
    case 'blob':
      return new Blob([fromBase64(tagged.v as string)], { type: tagged.type as string });
    case 'o': {
      const out: Record<string, unknown> = {};
      for (const [name, item] of Object.entries(tagged.v as object)) out[name] = fromJson(item, keys);
      return out;
    }
    case 'key': {
      const holder = new KeyHolder();
      const algorithm = fromJson(tagged.algorithm, keys) as AlgorithmIdentifier;
      keys.push(
        crypto.subtle
          .importKey('jwk', tagged.v as JsonWebKey, algorithm, false, tagged.usages as KeyUsage[])
          .then((key) => {
            storedKeys.set(key, tagged.v as JsonWebKey);
            holder.key = key;
          }),
      );
      return holder;
    }
    default:
      throw new Error(`Unknown stored value tag: ${String(tagged[TAG])}.`);
  }
}

/** Replaces the holders of imported keys by the keys. */
function fillKeys(value: unknown, seen = new Set<object>()): unknown {
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  seen.add(value);
  if (value instanceof KeyHolder) return value.key;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = fillKeys(value[i], seen);
  } else if (value instanceof Map) {
    for (const [k, v] of value) value.set(k, fillKeys(v, seen));
  } else if (value.constructor === Object) {
    const record = value as Record<string, unknown>;
    for (const name of Object.keys(record)) record[name] = fillKeys(record[name], seen);
  }
  return value;
}

/**
 * The record {@link encodeValue} stored as `text`: at once, or a promise when it holds a
 * CryptoKey (imported non-extractable).
 */
export function decodeValue(text: string): unknown {
  const keys: Promise<void>[] = [];
  const value = fromJson(JSON.parse(text), keys);
  if (keys.length === 0) return value;
  return Promise.all(keys).then(() => fillKeys(value));
}
