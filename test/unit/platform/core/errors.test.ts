// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { API_ERRORS, ApiError, OAuth2Error } from '../../../../src/platform/core/errors';

describe('ApiError (ARCHITECTURE rule 5: one error type)', () => {
  it('of(name) carries the table entry: status, code and message', () => {
    const e = ApiError.of('UNKNOWN_LOBBY');
    expect(e).toBeInstanceOf(Error);
    expect(e).toBeInstanceOf(ApiError);
    expect([e.status, e.code, e.message]).toEqual([404, 10031, 'Unknown Lobby']);
    expect(ApiError.of('MISSING_ACCESS', 'Missing OAuth2 scope: guilds').message).toBe('Missing OAuth2 scope: guilds');
  });

  it('toJSON is {code, message} without errors, {code, message, errors} with them', () => {
    expect(ApiError.of('UNAUTHORIZED').toJSON()).toStrictEqual({ code: 0, message: '401: Unauthorized' });
    const form = ApiError.invalidForm({ name: 'Required.' }).toJSON();
    expect(Object.keys(form).sort()).toEqual(['code', 'errors', 'message']);
    expect(JSON.parse(JSON.stringify(ApiError.of('UNKNOWN_GUILD')))).toEqual({ code: 10004, message: 'Unknown Guild' });
  });

  it('invalidForm is 400 / 50035 with a {field: {_errors: [{code, message}]}} tree', () => {
    const e = ApiError.invalidForm({ username: 'Must be between 2 and 32 in length.' });
    expect([e.status, e.code, e.message]).toEqual([400, 50035, 'Invalid Form Body']);
    expect(e.toJSON().errors).toEqual({
      username: { _errors: [{ code: 'BASE_TYPE_INVALID', message: 'Must be between 2 and 32 in length.' }] },
    });
  });

  it('invalidForm nests dotted paths (members.3.id) and keeps sibling fields and specific codes', () => {
    const e = ApiError.invalidForm({
      'members.3.id': 'Value is not snowflake.',
      'members.3.metadata': { code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 1000 or fewer in length.' },
      'members.0.id': 'Unknown user.',
      secret: 'Too long.',
    });
    expect(JSON.parse(JSON.stringify(e))).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        members: {
          3: {
            id: { _errors: [{ code: 'BASE_TYPE_INVALID', message: 'Value is not snowflake.' }] },
            metadata: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 1000 or fewer in length.' }] },
          },
          0: { id: { _errors: [{ code: 'BASE_TYPE_INVALID', message: 'Unknown user.' }] } },
        },
        secret: { _errors: [{ code: 'BASE_TYPE_INVALID', message: 'Too long.' }] },
      },
    });
  });

  it('invalidForm puts a field named like an Object.prototype member in the tree, and pollutes nothing', () => {
    const e = ApiError.invalidForm({
      'metadata.toString': 'Must be a string.',
      'metadata.__proto__': 'Must be a string.',
      constructor: 'Bad.',
    });
    const body = JSON.parse(JSON.stringify(e));
    expect(body.errors.metadata.toString._errors[0].message).toBe('Must be a string.');
    expect(body.errors.metadata.__proto__._errors[0].message).toBe('Must be a string.');
    expect(body.errors.constructor._errors[0].message).toBe('Bad.');
    expect(({} as Record<string, unknown>)._errors).toBeUndefined();
    expect((Object.prototype.toString as unknown as Record<string, unknown>)._errors).toBeUndefined();
    expect((Object as unknown as Record<string, unknown>)._errors).toBeUndefined();
  });
});

describe('error table (CONTRACT §2)', () => {
  const CONTRACT: [status: number, code: number][] = [
    [400, 50035],
    [400, 50109],
    [401, 0],
    [403, 50001],
    [403, 50013],
    [404, 10003],
    [404, 10004],
    [404, 10008],
    [404, 10013],
    [404, 10031],
    [404, 0],
    [405, 0],
    [400, 160014],
    [400, 110000],
    [400, 530017],
    [413, 40005],
  ];
  const entries = Object.values(API_ERRORS).map((e) => [e.status, e.code] as const);

  it.each(CONTRACT)('HTTP %i with code %i is in API_ERRORS', (status, code) => {
    expect(entries).toContainEqual([status, code]);
  });

  it('names the CONTRACT entries as the platform does', () => {
    expect(API_ERRORS.INVALID_FORM_BODY).toMatchObject({ status: 400, code: 50035 });
    expect(API_ERRORS.INVALID_JSON).toMatchObject({ status: 400, code: 50109 });
    expect(API_ERRORS.UNAUTHORIZED).toEqual({ status: 401, code: 0, message: '401: Unauthorized' });
    expect(API_ERRORS.MISSING_ACCESS).toMatchObject({ status: 403, code: 50001 });
    expect(API_ERRORS.MISSING_PERMISSIONS).toMatchObject({ status: 403, code: 50013 });
    expect(API_ERRORS.UNKNOWN_CHANNEL).toMatchObject({ status: 404, code: 10003 });
    expect(API_ERRORS.UNKNOWN_GUILD).toMatchObject({ status: 404, code: 10004 });
    expect(API_ERRORS.UNKNOWN_MESSAGE).toMatchObject({ status: 404, code: 10008 });
    expect(API_ERRORS.UNKNOWN_USER).toMatchObject({ status: 404, code: 10013 });
    expect(API_ERRORS.UNKNOWN_LOBBY).toMatchObject({ status: 404, code: 10031 });
    expect(API_ERRORS.UNKNOWN_ROUTE).toMatchObject({ status: 404, code: 0 });
    expect(API_ERRORS.METHOD_NOT_ALLOWED).toMatchObject({ status: 405, code: 0 });
    expect(API_ERRORS.CANNOT_FORWARD_UNREADABLE).toMatchObject({ status: 400, code: 160014 });
    expect(API_ERRORS.INDEX_NOT_READY).toMatchObject({ status: 400, code: 110000 });
    expect(API_ERRORS.MERGE_BANNED_ACCOUNT).toMatchObject({ status: 400, code: 530017 });
    expect(API_ERRORS.REQUEST_TOO_LARGE).toMatchObject({ status: 413, code: 40005 });
  });
});

describe('OAuth2Error (RFC 6749 §5.2)', () => {
  it('is {error, error_description}; invalid_client is 401, the others 400', () => {
    const grant = new OAuth2Error('invalid_grant', 'Invalid "refresh_token" in request.');
    expect(grant.status).toBe(400);
    expect(grant.toJSON()).toStrictEqual({
      error: 'invalid_grant',
      error_description: 'Invalid "refresh_token" in request.',
    });
    expect(new OAuth2Error('invalid_client', 'Unknown client.').status).toBe(401);
  });
});
