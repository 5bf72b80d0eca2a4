/**
 * Wrong values for a request schema, generated with fast-check: for every field a schema declares
 * (walked together with a valid body, so nested objects and array items are reached), values that
 * are wrong *by what the schema declares*, never by running it: an array or a string where an
 * object is declared, a number outside the declared bounds or past 2^53, a fraction for an integer,
 * an impossible date for a date, a string longer than its declared maximum, an unlisted value for
 * a choice, null where null is not taken. A schema that accepted one of them would be the bug
 * the property test looks for, so none is filtered through the schema itself.
 */
import fc from 'fast-check';
import type * as v from 'valibot';
import { bitSetSchema, isoInstant, isoInstantText, snowflakeSchema } from '../../../src/platform/core/schema-parts';

/** What a schema declares about one field, read from its structure. */
export interface FieldShape {
  /** JSON kinds the field takes (`unknown` takes anything). */
  kinds: Set<'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' | 'unknown'>;
  /** An object's declared fields (read when asked: schemas of components and options nest in themselves). */
  readonly entries?: Record<string, FieldShape>;
  /** A dictionary's values. */
  readonly values?: FieldShape;
  /** An array's items. */
  readonly item?: FieldShape;
  /** The options of a union, each a shape of its own. */
  readonly options?: FieldShape[];
  /** The values of a picklist or literal. */
  choices?: unknown[];
  integer?: boolean;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  format?: 'snowflake' | 'instant' | 'bitset';
  /** The schema itself (to pick the option of a union that a valid value takes). */
  schema: v.GenericSchema;
}

type AnySchema = v.GenericSchema & Record<string, any>;

const SNOWFLAKE_PATTERN = /^\^\\d\{1,20\}\$$/;

/** Transformations of a string that keep the strings generated here as they are. */
const TRIMS = new Set(['trim', 'trim_start', 'trim_end']);

/** A property computed when first read (on whichever copy reads it). */
function lazily<T>(target: object, name: string, compute: () => T): void {
  Object.defineProperty(target, name, {
    configurable: true,
    enumerable: true,
    get() {
      const value = compute();
      Object.defineProperty(this, name, { value, enumerable: true, configurable: true });
      return value;
    },
  });
}

/** A copy of `shape` with `changes`, keeping its lazy properties lazy (a spread would read them all). */
function copyShape(shape: FieldShape, changes: Partial<FieldShape>): FieldShape {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(shape)) as FieldShape;
  for (const [key, value] of Object.entries(changes))
    Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

/** Reads what `schema` declares, through optional, nullable, pipes, lazy and unions. */
export function shapeOf(schema: v.GenericSchema): FieldShape {
  const s = schema as AnySchema;
  let shape: FieldShape;
  if (Array.isArray(s.pipe)) {
    shape = copyShape(shapeOf(s.pipe[0]), { schema });
    for (const item of s.pipe.slice(1) as Record<string, any>[]) {
      // After a transformation the pipe checks what it made, not what was sent: the rest says
      // nothing of the input (trimming aside, which leaves the values made here as they are).
      if (item.kind === 'transformation' && !TRIMS.has(item.type)) break;
      shape = applyPipeItem(shape, item);
    }
  } else {
    shape = baseShape(s);
  }
  // A snowflake is a string or a JSON number (CONTRACT §2); its check says nothing the walk can read.
  if (s === snowflakeSchema) shape = { kinds: new Set(['string', 'number']), format: 'snowflake', schema };
  if (s === isoInstant || s === isoInstantText) shape.format = 'instant';
  if (s === bitSetSchema) shape.format = 'bitset';
  return shape;
}

/** The shape of a schema without a pipe. */
function baseShape(s: AnySchema): FieldShape {
  const shape: FieldShape = { kinds: new Set(), schema: s };
  switch (s.type) {
    case 'optional':
    case 'exact_optional':
    case 'undefinedable': {
      const inner = shapeOf(s.wrapped);
      return copyShape(inner, { kinds: new Set(inner.kinds), schema: s });
    }
    case 'nullable':
    case 'nullish': {
      const inner = shapeOf(s.wrapped);
      return copyShape(inner, { kinds: new Set([...inner.kinds, 'null']), schema: s });
    }
    case 'lazy':
      return shapeOf(s.getter(undefined));
    case 'object':
    case 'loose_object':
    case 'strict_object':
    case 'object_with_rest':
      shape.kinds.add('object');
      lazily(shape, 'entries', () =>
        Object.fromEntries(
          Object.entries(s.entries as Record<string, v.GenericSchema>).map(([k, e]) => [k, shapeOf(e)]),
        ),
      );
      break;
    case 'record':
      shape.kinds.add('object');
      lazily(shape, 'values', () => shapeOf(s.value));
      break;
    case 'array':
      shape.kinds.add('array');
      lazily(shape, 'item', () => shapeOf(s.item));
      break;
    case 'tuple':
    case 'strict_tuple':
    case 'loose_tuple':
      shape.kinds.add('array');
      lazily(shape, 'item', () => shapeOf(s.items[0]));
      break;
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      shape.kinds.add(s.type);
      break;
    case 'picklist':
      shape.choices = [...s.options];
      for (const o of s.options) shape.kinds.add(kindOf(o));
      break;
    case 'literal':
      shape.choices = [s.literal];
      shape.kinds.add(kindOf(s.literal));
      break;
    case 'union':
    case 'variant': {
      const options = (s.options as v.GenericSchema[]).map((o) => shapeOf(o));
      Object.defineProperty(shape, 'options', { value: options, enumerable: true });
      for (const o of options) for (const k of o.kinds) shape.kinds.add(k);
      break;
    }
    case 'custom':
      // A custom check says nothing this walk can read; a later schema in its pipe may.
      break;
    default:
      shape.kinds.add('unknown');
  }
  if (shape.kinds.size === 0 && s.type !== 'custom') shape.kinds.add('unknown');
  return shape;
}

/** The shape after one more item of a pipe: a schema (a dictionary's record) or an action. */
function applyPipeItem(shape: FieldShape, item: Record<string, any>): FieldShape {
  if (item.kind === 'schema') {
    const later = shapeOf(item as v.GenericSchema);
    const kinds = shape.kinds.has('null') ? new Set([...later.kinds, 'null' as const]) : later.kinds;
    return copyShape(later, { kinds, format: later.format ?? shape.format, schema: shape.schema });
  }
  const next = copyShape(shape, {});
  if (item.type === 'integer' || item.type === 'safe_integer') next.integer = true;
  if (item.type === 'safe_integer') {
    next.min = Math.max(next.min ?? -Infinity, Number.MIN_SAFE_INTEGER);
    next.max = Math.min(next.max ?? Infinity, Number.MAX_SAFE_INTEGER);
  }
  if (item.type === 'min_value') next.min = Math.max(next.min ?? -Infinity, item.requirement);
  if (item.type === 'max_value') next.max = Math.min(next.max ?? Infinity, item.requirement);
  if (item.type === 'min_length') next.minLength = item.requirement;
  if (item.type === 'max_length') next.maxLength = item.requirement;
  if (item.type === 'iso_timestamp') next.format = 'instant';
  if (item.type === 'regex' && SNOWFLAKE_PATTERN.test((item.requirement as RegExp).source)) next.format = 'snowflake';
  return next;
}

function kindOf(value: unknown): 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as 'object' | 'string' | 'number' | 'boolean';
}

/** One value of each JSON kind, to put where the field's kinds exclude it. */
const ONE_OF_EACH_KIND: Record<string, fc.Arbitrary<unknown>> = {
  object: fc.oneof(
    fc.constant({}),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  ),
  array: fc.oneof(fc.constant([]), fc.constant([{}]), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 })),
  string: fc.string({ maxLength: 20 }),
  number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  boolean: fc.boolean(),
  null: fc.constant(null),
};

/** Days in a month of a year. */
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** ISO-8601 date-times that name no instant: day 30 of February, month 13, hour 24, no offset. */
const impossibleInstant: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({ year: fc.integer({ min: 2000, max: 2099 }), month: fc.constantFrom(2, 4, 6, 9, 11) })
    .chain(({ year, month }) =>
      fc.integer({ min: daysIn(year, month) + 1, max: 31 }).map((day) => `${year}-${pad(month)}-${pad(day)}T00:00:00Z`),
    ),
  fc.integer({ min: 13, max: 99 }).map((month) => `2026-${pad(month)}-01T00:00:00Z`),
  fc.integer({ min: 24, max: 99 }).map((hour) => `2026-02-23T${pad(hour)}:00:00Z`),
  fc.constantFrom('2026-02-30T00:00:00Z', '2026-02-23T12:00:00', '2026-02-23', 'tomorrow', ''),
);

/** Strings that are no snowflake: not digits, negative, past 2^64 - 1. */
const notSnowflake: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '-1', '1.5', '18446744073709551616', '99999999999999999999', 'abc'),
  fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/^\d+$/.test(s)),
);

/**
 * Numbers that are no snowflake: fractions, negatives, 2^64 and past. (An integer from 2^53 to
 * 2^64 - 1 is one: the body's text holds its exact digits.)
 */
const notSnowflakeNumber: fc.Arbitrary<number> = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
  fc.integer({ min: -(2 ** 31), max: -1 }),
  fc.constantFrom(2 ** 64, 2 ** 70, 1e300),
);

/** Strings that are no 64-bit bit set. */
const notBitSet: fc.Arbitrary<string> = fc.constantFrom('-1', 'abc', '18446744073709551616', '1.5', '');

/**
 * Values wrong for `shape`; `valid` is the field's value in the valid body (for an array, its
 * items are repeated past the declared maximum). Empty when nothing the shape declares makes a
 * value wrong (an `unknown` field).
 */
export function wrongValuesFor(shape: FieldShape, valid: unknown): fc.Arbitrary<unknown>[] {
  if (shape.kinds.has('unknown')) return [];
  const out: fc.Arbitrary<unknown>[] = [];
  for (const kind of ['object', 'array', 'string', 'number', 'boolean', 'null'] as const) {
    if (!shape.kinds.has(kind)) out.push(ONE_OF_EACH_KIND[kind]);
  }
  if (shape.choices) out.push(...wrongChoices(shape));
  if (shape.options) return out;
  if (shape.format === 'snowflake') out.push(notSnowflakeNumber);
  else if (shape.kinds.has('number') && !shape.choices) out.push(...wrongNumbers(shape));
  if (shape.kinds.has('string') && !shape.choices) out.push(...wrongStrings(shape));
  if (shape.kinds.has('array') && shape.item) {
    const inner = wrongValuesFor(shape.item, Array.isArray(valid) ? valid[0] : undefined);
    if (inner.length > 0) out.push(fc.oneof(...inner).map((item) => [item]));
    if (shape.maxLength !== undefined && Array.isArray(valid) && valid.length > 0) {
      out.push(fc.constant(Array.from({ length: shape.maxLength + 1 }, (_, i) => valid[i % valid.length])));
    }
  }
  if (shape.kinds.has('object') && shape.values) {
    const inner = wrongValuesFor(shape.values, undefined);
    if (inner.length > 0) out.push(fc.oneof(...inner).map((value) => ({ key: value })));
  }
  return out;
}

function wrongChoices(shape: FieldShape): fc.Arbitrary<unknown>[] {
  const choices = shape.choices!;
  const out: fc.Arbitrary<unknown>[] = [];
  const numbers = choices.filter((c): c is number => typeof c === 'number');
  if (numbers.length > 0) out.push(fc.integer({ min: -1000, max: 1000 }).filter((n) => !numbers.includes(n)));
  const strings = choices.filter((c): c is string => typeof c === 'string');
  if (strings.length > 0) out.push(fc.string({ maxLength: 12 }).filter((s) => !strings.includes(s)));
  return out;
}

function wrongNumbers(shape: FieldShape): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  const { min, max } = shape;
  if (shape.integer) {
    out.push(fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)));
    // Past what JavaScript holds exactly (a 32-bit mask would read 2^32 and its multiples as 0).
    if (max === undefined || max > Number.MAX_SAFE_INTEGER) out.push(fc.constantFrom(2 ** 53, 2 ** 64, 1e300));
    if (min === undefined || min < Number.MIN_SAFE_INTEGER) out.push(fc.constantFrom(-(2 ** 53), -(2 ** 64)));
  }
  if (max !== undefined && Number.isFinite(max)) {
    out.push(fc.constantFrom(max + 1, max * 2 + 1, 2 ** 32, 2 ** 53).filter((n) => n > max));
    out.push(fc.integer({ min: 1, max: 2 ** 30 }).map((d) => max + d));
  }
  if (min !== undefined && Number.isFinite(min)) {
    out.push(fc.integer({ min: 1, max: 2 ** 30 }).map((d) => min - d));
  }
  return out;
}

function wrongStrings(shape: FieldShape): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  if (shape.maxLength !== undefined) {
    const n = shape.maxLength;
    out.push(fc.integer({ min: n + 1, max: n + 64 }).map((len) => 'x'.repeat(len)));
  }
  if (shape.minLength !== undefined && shape.minLength > 0) out.push(fc.constant(''));
  if (shape.format === 'snowflake') out.push(notSnowflake);
  if (shape.format === 'instant') out.push(impossibleInstant);
  if (shape.format === 'bitset') out.push(notBitSet);
  return out;
}

/** A field of a body: where it is, what it declares, and its value in the valid body. */
export interface FieldPath {
  path: (string | number)[];
  shape: FieldShape;
  valid: unknown;
}

/**
 * Every field reachable from the valid body: each declared field of an object the body has
 * (present or not), the first item of each array it has, and the option of a union its value
 * takes. Fields inside parts the body leaves out are not reached (their parent is).
 */
export function fieldsOf(shape: FieldShape, valid: unknown, path: (string | number)[] = []): FieldPath[] {
  const out: FieldPath[] = [{ path, shape, valid }];
  if (valid === undefined || valid === null) return out;
  const taken = shape.options ? optionTaking(shape.options, valid) : shape;
  if (!taken) return out;
  if (taken.entries && typeof valid === 'object' && !Array.isArray(valid)) {
    for (const [key, entry] of Object.entries(taken.entries)) {
      out.push(...fieldsOf(entry, (valid as Record<string, unknown>)[key], [...path, key]));
    }
  } else if (taken.item && Array.isArray(valid) && valid.length > 0) {
    out.push(...fieldsOf(taken.item, valid[0], [...path, 0]).slice(1));
    out.push({ path: [...path, 0], shape: taken.item, valid: valid[0] });
  }
  return out;
}

/** The option of a union that `valid` passes. */
function optionTaking(options: FieldShape[], valid: unknown): FieldShape | undefined {
  return options.find((o) => {
    const run = (o.schema as AnySchema)['~run'];
    return !run.call(o.schema, { value: valid }, { abortEarly: true }).issues;
  });
}

/** `body` with the value at `path` replaced by `value` (the body itself when `path` is empty). */
export function replaceAt(body: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: any = Array.isArray(body) ? [...body] : { ...(body as object) };
  copy[path[0]] = replaceAt(copy[path[0]], path.slice(1), value);
  return copy;
}

/** One wrong body: the field changed (its path) and the body sent. */
export interface WrongBody {
  path: (string | number)[];
  body: unknown;
}

/**
 * The kinds of wrong body of a route, one arbitrary each: the valid body with one field (or the
 * body itself) replaced by one kind of value wrong for it.
 */
export function wrongBodyKinds(schema: v.GenericSchema, valid: unknown): fc.Arbitrary<WrongBody>[] {
  return fieldsOf(shapeOf(schema), valid).flatMap(({ path, shape, valid: at }) =>
    wrongValuesFor(shape, at).map((values) => values.map((value) => ({ path, body: replaceAt(valid, path, value) }))),
  );
}

/**
 * The arbitrary of wrong bodies of a route, any kind on any field.
 * @example fc.sample(wrongBodies(LobbySettingsSchema, { metadata: { a: 'b' } }), 5)
 */
export function wrongBodies(schema: v.GenericSchema, valid: unknown): fc.Arbitrary<WrongBody> {
  return fc.oneof(...wrongBodyKinds(schema, valid));
}
