// @vitest-environment node
/**
 * CONTRACT §2: an id may come as a JSON number, read exactly from the request's text.
 * `parseExactJson` is `JSON.parse` except for integers beyond 2^53, which keep their digits.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { holdsExactIntegers, parseExactJson, withPlainNumbers } from '../../../../src/platform/core/exact-json';
import { snowflakeSchema } from '../../../../src/platform/core/schema-parts';
import { parseJsonBody, validate } from '../../../../sw/http';

const ID = '1311830588542947409';

describe('JSON with exact large integers (ids as numbers)', () => {
  it('an integer beyond 2^53 is a bigint of its exact digits, wherever it is', () => {
    const parsed = parseExactJson(`{"a":${ID},"b":[1,${ID}1,-${ID}],"c":{"d":${ID}}}`) as any;
    expect(parsed).toEqual({ a: BigInt(ID), b: [1, BigInt(`${ID}1`), -BigInt(ID)], c: { d: BigInt(ID) } });
    expect(holdsExactIntegers(parsed)).toBe(true);
  });

  it('text without such an integer parses as JSON.parse does: safe integers, fractions, exponents, digits in strings', () => {
    for (const text of [
      '{"a":9007199254740991,"b":"1311830588542947409","c":1.5}',
      `{"a":${ID}.5,"b":${ID}e2,"c":"\\"${ID}"}`,
      '[1e400, -0, 0.1]',
    ]) {
      const parsed = parseExactJson(text);
      expect(parsed).toEqual(JSON.parse(text));
      expect(holdsExactIntegers(parsed)).toBe(false);
    }
  });

  it('a sent string shaped like the quoting marker stays a string', () => {
    const text = `{"s":"\\ue000${'0'.repeat(24)}:1","n":${ID},"t":"\uE000x:2"}`;
    expect(parseExactJson(text)).toEqual({ s: `\uE000${'0'.repeat(24)}:1`, n: BigInt(ID), t: '\uE000x:2' });
  });

  it('invalid JSON still throws SyntaxError', () => {
    expect(() => parseExactJson(`{"a":${ID},}`)).toThrow(SyntaxError);
  });

  it('withPlainNumbers turns leftover bigints into the numbers JSON.parse gives, keeping a __proto__ key a key', () => {
    const plain = withPlainNumbers(parseExactJson(`{"x":[${ID}],"__proto__":{"y":${ID}}}`)) as any;
    expect(plain.x).toEqual([Number(ID)]);
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.keys(plain)).toEqual(['x', '__proto__']);
  });

  it('the snowflake schema takes a string, a safe integer or an exact bigint, and answers the string', () => {
    expect(v.parse(snowflakeSchema, ID)).toBe(ID);
    expect(v.parse(snowflakeSchema, 42)).toBe('42');
    expect(v.parse(snowflakeSchema, BigInt(ID))).toBe(ID);
    const rounded = v.safeParse(snowflakeSchema, Number(ID));
    expect(rounded.success).toBe(false);
    expect(rounded.issues?.[0].message).toContain('lost its digits');
    for (const bad of [-1, 1.5, true, null, 'x', 2n ** 64n])
      expect(v.safeParse(snowflakeSchema, bad).success).toBe(false);
  });

  it('a body validated with a free-form field keeps that field a number, and the id exact', () => {
    const schema = v.object({ id: snowflakeSchema, extra: v.unknown() });
    expect(validate(schema, parseJsonBody(`{"id":${ID},"extra":${ID}}`))).toEqual({ id: ID, extra: Number(ID) });
  });
});
