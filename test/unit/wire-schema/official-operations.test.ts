// @vitest-environment node
/**
 * The schema check reads the official description from the installed package: every operation
 * of its `Paths` table, every response type turned into the package's own zod schemas, and a
 * request's concrete path matched to the most specific template.
 */
import { describe, expect, it } from 'vitest';
import { readOfficialOperations, schemaOfType } from './official-operations';
import { apiPathOf, checkAnswer, operationOf } from './response-check';

describe('the official description, as the schema check reads it', () => {
  const operations = readOfficialOperations();

  it('has every operation of the Paths table, each with its success status', () => {
    const total = (operations as { template: string }[]).length;
    expect(total).toBeGreaterThanOrEqual(200);
    expect(new Set(operations.map((o) => `${o.method} ${o.template}`)).size).toBe(total);
    for (const o of operations)
      expect(
        Object.keys(o.responses).some((s) => s.startsWith('2')),
        o.template,
      ).toBe(true);
    expect(operations.find((o) => o.method === 'post' && o.template === '/lobbies')?.responses['201']).toBe(
      'LobbyResponse',
    );
  });

  it('turns every response type into the package’s zod schemas', () => {
    for (const o of operations)
      for (const type of Object.values(o.responses)) expect(() => schemaOfType(type), type).not.toThrow();
  });

  it('reads arrays, unions with null and the index signature', () => {
    expect(schemaOfType('MessageResponse[] | null').safeParse(null).success).toBe(true);
    expect(schemaOfType('MessageResponse[] | null').safeParse([{}]).success).toBe(false);
    expect(schemaOfType('{ [key: string]: number; }').safeParse({ a: 1 }).success).toBe(true);
    expect(schemaOfType('{ [key: string]: number; }').safeParse({ a: 'x' }).success).toBe(false);
    expect(() => schemaOfType('NoSuchThingResponse')).toThrow(/no NoSuchThingResponseSchema/);
  });

  it('matches a concrete path below /api, /api/v9, /api/v10 and /.proxy to the most specific template', () => {
    expect(apiPathOf('/api/v10/users/@me')).toBe('/users/@me');
    expect(apiPathOf('/api/v9/users/@me?x=1')).toBe('/users/@me');
    expect(apiPathOf('/.proxy/api/lobbies/1')).toBe('/lobbies/1');
    expect(apiPathOf('/oauth2/@me')).toBe('/oauth2/@me');
    expect(apiPathOf('/sandbox/users')).toBeUndefined();
    expect(operationOf('GET', '/api/v10/users/@me')?.template).toBe('/users/@me');
    expect(operationOf('GET', '/api/v10/users/123')?.template).toBe('/users/{user_id}');
    expect(operationOf('DELETE', '/api/lobbies/1/members/@me')?.template).toBe('/lobbies/{lobby_id}/members/@me');
    expect(operationOf('GET', '/api/v10/nothing/here')).toBeUndefined();
  });

  it('fails an answer that lacks a required field or has an undescribed success status, and allows extra fields', () => {
    const user = {
      ...{ id: '1', username: 'a', discriminator: '0', avatar: null, global_name: null, primary_guild: null },
      ...{ public_flags: 0, flags: 0, extra: true },
    };
    expect(checkAnswer('GET', '/api/v10/users/1', 200, user, true)).toBeUndefined();
    const { public_flags: _, ...lacking } = user;
    expect(checkAnswer('GET', '/api/v10/users/1', 200, lacking, true)?.issues.join()).toMatch(/public_flags/);
    expect(checkAnswer('POST', '/api/v10/lobbies', 200, {}, true)?.issues.join()).toMatch(/status 200/);
    expect(checkAnswer('GET', '/api/v10/users/1', 404, { code: 10013, message: 'Unknown User' }, true)).toBeUndefined();
    expect(checkAnswer('GET', '/api/v10/users/1', 404, { error: 'x' }, true)).toBeDefined();
  });
});
