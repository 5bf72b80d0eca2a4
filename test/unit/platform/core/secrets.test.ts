// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  generateBotToken,
  generateSecret,
  hashSecret,
  pkceChallenge,
  redactSecrets,
} from '../../../../src/platform/core/secrets';

describe('redactSecrets (spec: Authentication rule 9, token values are never logged)', () => {
  it.each([
    ['Authorization: Bot MTIzNDU2.abcd.efgh-ijkl_mnop', 'MTIzNDU2.abcd.efgh-ijkl_mnop'],
    ['Authorization: Bearer Yw3XqGm0_zF-kP9', 'Yw3XqGm0_zF-kP9'],
    ['authorization: bearer Yw3XqGm0_zF-kP9', 'Yw3XqGm0_zF-kP9'],
    ['authorization: bot MTIzNDU2.abcd.efgh', 'MTIzNDU2.abcd.efgh'],
    ['Authorization: Basic MTIzOnNlY3JldA==', 'MTIzOnNlY3JldA=='],
    ['POST /oauth2/token access_token=tok.en-1&token_type=Bearer', 'tok.en-1'],
    ['{"access_token":"AT123","token_type":"Bearer"}', 'AT123'],
    ['{"refresh_token": "RT-456"}', 'RT-456'],
    ["{ refresh_token: 'RT-789' }", 'RT-789'],
    ['grant_type=authorization_code&client_secret=CS_abc~1&client_id=1', 'CS_abc~1'],
    ['client_id=1&client_secret=CS%2Fpart-two', 'part-two'],
    [
      'code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk&code=C0DE',
      'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    ],
    ['code_verifier=v&code=AUTHCODE42', 'AUTHCODE42'],
    ['{"bot_token":"MTIz.x.y"}', 'MTIz.x.y'],
    ['identify {"op":2,"d":{"token":"MTIz.raw.token"}}', 'MTIz.raw.token'],
  ])('%s loses its secret', (line, secret) => {
    const redacted = redactSecrets(line);
    expect(redacted).not.toContain(secret);
    expect(redacted).toContain('[redacted]');
  });

  it('keeps the rest of the line readable', () => {
    expect(redactSecrets('Authorization: Bot abc.def')).toBe('Authorization: Bot [redacted]');
    expect(redactSecrets('{"refresh_token": "RT-456", "scope": "openid"}')).toBe(
      '{"refresh_token": "[redacted]", "scope": "openid"}',
    );
    expect(redactSecrets('client_secret=xyz&client_id=42')).toBe('client_secret=[redacted]&client_id=42');
    expect(redactSecrets('nothing secret here')).toBe('nothing secret here');
  });

  it('redacts every occurrence in a multi-line text (a stack trace)', () => {
    const text = 'Error: failed for Bearer one.two\n    at x (Bearer three.four)\n    access_token=five';
    const redacted = redactSecrets(text);
    for (const secret of ['one.two', 'three.four', 'five']) expect(redacted).not.toContain(secret);
  });
});

describe('hashing and PKCE', () => {
  it('hashSecret is SHA-256 as lowercase hex (FIPS 180-2 vector for "abc")', async () => {
    expect(await hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await hashSecret('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('pkceChallenge is S256 of RFC 7636 Appendix B', async () => {
    expect(await pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('generated secrets are unpadded base64url of the requested size and differ', () => {
    const a = generateSecret();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateSecret(3)).toMatch(/^[A-Za-z0-9_-]{4}$/);
    expect(new Set(Array.from({ length: 50 }, () => generateSecret())).size).toBe(50);
  });

  it('a bot token has three parts, the first the base64 of the bot user id', () => {
    const token = generateBotToken('175928847299117063');
    const [id, ...rest] = token.split('.');
    expect(rest).toHaveLength(2);
    expect(atob(id)).toBe('175928847299117063');
    expect(redactSecrets(`Bot ${token}`)).toBe('Bot [redacted]');
  });
});
