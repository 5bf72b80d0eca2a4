/**
 * Keys as bytes whose byte order is the port's key order (IndexedDB's), so that SQLite's own
 * BLOB comparison (memcmp) sorts, ranges and seeks records exactly as IndexedDB does.
 *
 * - A number is `0x10` and its float64, big-endian, with the sign bit flipped for positives and
 *   every bit flipped for negatives: -Infinity < -1 < 0 < 2.5 < Infinity as bytes.
 * - A string is `0x20`, its UTF-16 code units big-endian (code unit order, as IndexedDB compares
 *   strings), each `0x00` byte escaped as `0x00 0xFF`, and a `0x00` terminator: a prefix sorts
 *   first because the terminator is below every byte of a longer string and below every tag.
 * - An array is `0x30`, its elements, and a `0x00` terminator: element by element, a prefix first.
 *
 * Numbers < strings < arrays because their tags are.
 */
import type { Key } from '../port';

const NUMBER = 0x10;
const STRING = 0x20;
const ARRAY = 0x30;
const END = 0x00;
const ESCAPE = 0xff;

/** True when `value` is a valid key: a number other than NaN, a string, or an array of keys. */
export function isValidKey(value: unknown): value is Key {
  if (typeof value === 'number') return !Number.isNaN(value);
  if (typeof value === 'string') return true;
  return Array.isArray(value) && value.every(isValidKey);
}

/** A growable byte buffer. */
class Bytes {
  buffer = new Uint8Array(32);
  length = 0;

  push(byte: number): void {
    if (this.length === this.buffer.length) this.#grow(1);
    this.buffer[this.length++] = byte;
  }

  pushAll(bytes: Uint8Array): void {
    if (this.length + bytes.length > this.buffer.length) this.#grow(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  #grow(extra: number): void {
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }
}

const float = new DataView(new ArrayBuffer(8));

function writeKey(out: Bytes, key: Key): void {
  if (typeof key === 'number') {
    float.setFloat64(0, key === 0 ? 0 : key);
    const bytes = new Uint8Array(float.buffer.slice(0));
    if (bytes[0] & 0x80) for (let i = 0; i < 8; i++) bytes[i] ^= 0xff;
    else bytes[0] ^= 0x80;
    out.push(NUMBER);
    out.pushAll(bytes);
  } else if (typeof key === 'string') {
    out.push(STRING);
    for (let i = 0; i < key.length; i++) {
      const unit = key.charCodeAt(i);
      const high = unit >> 8;
      const low = unit & 0xff;
      out.push(high);
      if (high === 0) out.push(ESCAPE);
      out.push(low);
      if (low === 0) out.push(ESCAPE);
    }
    out.push(END);
  } else {
    out.push(ARRAY);
    for (const element of key) writeKey(out, element);
    out.push(END);
  }
}

/**
 * The bytes of a key; throws a `DataError` for a value that is no valid key.
 * @example encodeKey(['lobby', 3]) // sorts between encodeKey(['lobby']) and encodeKey(['lobby', 'a'])
 */
export function encodeKey(key: Key): Uint8Array {
  if (!isValidKey(key)) throw new DOMException('The value is not a valid key.', 'DataError');
  const out = new Bytes();
  writeKey(out, key);
  return out.buffer.slice(0, out.length);
}

/** Reads one key from `bytes` at `at`; returns it and where the next one starts. */
function readKey(bytes: Uint8Array, at: number): [Key, number] {
  const tag = bytes[at];
  if (tag === NUMBER) {
    const raw = bytes.slice(at + 1, at + 9);
    if (raw[0] & 0x80) raw[0] ^= 0x80;
    else for (let i = 0; i < 8; i++) raw[i] ^= 0xff;
    return [new DataView(raw.buffer).getFloat64(0), at + 9];
  }
  if (tag === STRING) {
    const units: number[] = [];
    let i = at + 1;
    const next = (): number => {
      const byte = bytes[i++];
      if (byte === 0) i++; // the escape after a data 0x00
      return byte;
    };
    while (bytes[i] !== END || bytes[i + 1] === ESCAPE) units.push((next() << 8) | next());
    let text = '';
    for (let start = 0; start < units.length; start += 4096) {
      text += String.fromCharCode(...units.slice(start, start + 4096));
    }
    return [text, i + 1];
  }
  if (tag === ARRAY) {
    const elements: Key[] = [];
    let i = at + 1;
    while (bytes[i] !== END) {
      const [element, after] = readKey(bytes, i);
      elements.push(element);
      i = after;
    }
    return [elements, i + 1];
  }
  throw new Error(`Not an encoded key (tag ${tag}).`);
}

/** The key that {@link encodeKey} turned into `bytes`. */
export function decodeKey(bytes: Uint8Array): Key {
  return readKey(bytes, 0)[0];
}
