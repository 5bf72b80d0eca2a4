// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { errorResponse } from '../../../../sw/http';
import { ApiError, OAuth2Error } from '../../../../src/platform/core/errors';
import { JSON_BODY_MAX_BYTES } from '../../../../src/platform/core/limits';
import { createTestClient } from '../../app-harness';

/** A JSON body of exactly `bytes` UTF-8 bytes that creates a user (the padding field is ignored). */
function userBodyOf(bytes: number, pad = 'x'): string {
  const empty = JSON.stringify({ username: 'alice', pad: '' });
  const padBytes = new TextEncoder().encode(pad).byteLength;
  const count = Math.ceil((bytes - empty.length) / padBytes);
  return JSON.stringify({ username: 'alice', pad: pad.repeat(count) });
}

describe('request bodies at the HTTP edge', () => {
  it(`a body over JSON_BODY_MAX_BYTES (${JSON_BODY_MAX_BYTES}) is 413 / 40005 and nothing is stored`, async () => {
    const client = await createTestClient();
    const raw = userBodyOf(JSON_BODY_MAX_BYTES + 1);
    expect(raw.length).toBe(JSON_BODY_MAX_BYTES + 1);
    const res = await client.request('POST', '/sandbox/users', {
      raw,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 40005, message: 'Request entity too large' });
    expect(await client.app.ctx.db.count('users')).toBe(0);
    expect(await client.app.ctx.db.count('events')).toBe(0);
  });

  it('the limit counts UTF-8 bytes, not characters', async () => {
    const client = await createTestClient();
    const raw = userBodyOf(JSON_BODY_MAX_BYTES + 2, 'é');
    expect(raw.length).toBeLessThan(JSON_BODY_MAX_BYTES);
    const res = await client.request('POST', '/sandbox/users', {
      raw,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(await client.app.ctx.db.count('users')).toBe(0);
  });

  it('a body of exactly JSON_BODY_MAX_BYTES is read', async () => {
    const client = await createTestClient();
    const raw = userBodyOf(JSON_BODY_MAX_BYTES);
    expect(raw.length).toBe(JSON_BODY_MAX_BYTES);
    const res = await client.request('POST', '/sandbox/users', {
      raw,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(201);
    expect(await client.app.ctx.db.count('users')).toBe(1);
  });
});

describe('errorResponse (ARCHITECTURE rule 5)', () => {
  it('an unexpected Error is a 500 whose body holds no detail, logged once with tokens redacted', async () => {
    const log = vi.fn();
    const error = new Error('lookup failed for Authorization: Bearer abc.def (client_secret=s3cr3t)');
    const response = errorResponse(error, log);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ code: 0, message: '500: Internal Server Error' });
    for (const detail of ['lookup failed', 'abc.def', 's3cr3t', 'Error:']) expect(text).not.toContain(detail);
    expect(log).toHaveBeenCalledTimes(1);
    const line = log.mock.calls[0][0] as string;
    expect(line).toContain('lookup failed');
    expect(line).toContain('[redacted]');
    expect(line).not.toContain('abc.def');
    expect(line).not.toContain('s3cr3t');
  });

  it('a thrown non-Error is a 500 too, and its text is redacted in the log', async () => {
    const log = vi.fn();
    const response = errorResponse('Bot MTIz.raw.token', log);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ code: 0, message: '500: Internal Server Error' });
    expect(log.mock.calls[0][0]).not.toContain('MTIz.raw.token');
  });

  it('an ApiError is answered with its status and JSON body, and is not logged', async () => {
    const log = vi.fn();
    const response = errorResponse(ApiError.invalidForm({ 'members.0.id': 'Value is not snowflake.' }), log);
    expect(response.status).toBe(400);
    expect(response.headers.get('Content-Type')).toContain('application/json');
    expect(await response.json()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        members: { 0: { id: { _errors: [{ code: 'BASE_TYPE_INVALID', message: 'Value is not snowflake.' }] } } },
      },
    });
    expect(log).not.toHaveBeenCalled();
  });

  it('an OAuth2Error is an RFC 6749 body that is never cached', async () => {
    const log = vi.fn();
    const response = errorResponse(new OAuth2Error('invalid_grant', 'Invalid "refresh_token" in request.'), log);
    expect(response.status).toBe(400);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(await response.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid "refresh_token" in request.',
    });
    expect(log).not.toHaveBeenCalled();
  });
});
