// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { AuthorizationArgs, IntegrationType, authorizeRedirectUri } from '../../../src/sdk/authorization-args';
import { createAuthorizationCodeVerifier } from '../../../src/sdk/code-verifier';
import { ErrorType, SdkError } from '../../../src/sdk/errors';

/** The error a call threw (fails the test when it did not throw). */
function thrown(fn: () => unknown): SdkError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SdkError);
    return error as SdkError;
  }
  throw new Error('expected a throw');
}

async function filled(): Promise<AuthorizationArgs> {
  const args = new AuthorizationArgs();
  args.setClientId('1234567890123');
  args.setScopes('openid sdk.social_layer');
  args.setState('st');
  args.setNonce('n0nce');
  args.setCodeChallenge((await createAuthorizationCodeVerifier()).challenge);
  args.setIntegrationType(IntegrationType.UserInstall);
  args.setCustomSchemeParam('mygame');
  return args;
}

describe('AuthorizationArgs: every field has a getter named as the field and a Set<Field> setter', () => {
  it('a new record has Scopes empty and every optional field unset', () => {
    const args = new AuthorizationArgs();
    expect(args.scopes()).toBe('');
    expect(args.clientId()).toBeUndefined();
    expect(args.state()).toBeUndefined();
    expect(args.nonce()).toBeUndefined();
    expect(args.codeChallenge()).toBeUndefined();
    expect(args.integrationType()).toBeUndefined();
    expect(args.customSchemeParam()).toBeUndefined();
  });

  it('each setter sets what its getter reads, and undefined unsets an optional field', async () => {
    const args = await filled();
    expect(args.clientId()).toBe('1234567890123');
    expect(args.scopes()).toBe('openid sdk.social_layer');
    expect(args.state()).toBe('st');
    expect(args.nonce()).toBe('n0nce');
    expect(args.codeChallenge()).toMatchObject({ method: 'S256' });
    expect(args.integrationType()).toBe(1);
    expect(args.customSchemeParam()).toBe('mygame');
    args.setClientId(undefined);
    args.setState(undefined);
    args.setNonce(undefined);
    args.setCodeChallenge(undefined);
    args.setIntegrationType(undefined);
    args.setCustomSchemeParam(undefined);
    expect([
      args.clientId(),
      args.state(),
      args.nonce(),
      args.codeChallenge(),
      args.integrationType(),
      args.customSchemeParam(),
    ]).toEqual(Array(6).fill(undefined));
  });

  it('ClientId is a uint64: a decimal string or a bigint up to 2^64-1; anything else is refused', () => {
    const args = new AuthorizationArgs();
    args.setClientId(18446744073709551615n);
    expect(args.clientId()).toBe('18446744073709551615');
    for (const bad of ['18446744073709551616', 'abc', '-1', '', '0', '1.5'])
      expect(thrown(() => args.setClientId(bad)).type).toBe(ErrorType.ValidationError);
    expect(args.clientId()).toBe('18446744073709551615');
  });

  it('IntegrationType is GuildInstall (0) or UserInstall (1)', () => {
    expect(IntegrationType).toEqual({ GuildInstall: 0, UserInstall: 1 });
    const args = new AuthorizationArgs();
    args.setIntegrationType(IntegrationType.GuildInstall);
    expect(args.integrationType()).toBe(0);
    expect(thrown(() => args.setIntegrationType(2 as never)).message).toMatch(
      /GuildInstall \(0\) or IntegrationType.UserInstall \(1\)/,
    );
  });

  it('CodeChallenge takes the challenge of createAuthorizationCodeVerifier(): 43 base64url characters, method S256', async () => {
    const { challenge, verifier } = await createAuthorizationCodeVerifier();
    expect(challenge.method).toBe('S256');
    expect(challenge.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    const args = new AuthorizationArgs();
    args.setCodeChallenge(challenge);
    expect(args.codeChallenge()).toEqual(challenge);
    expect(
      thrown(() => args.setCodeChallenge({ challenge: challenge.challenge, method: 'plain' as never })).message,
    ).toMatch(/S256/);
    expect(thrown(() => args.setCodeChallenge({ challenge: 'short', method: 'S256' })).type).toBe(
      ErrorType.ValidationError,
    );
  });

  it('CustomSchemeParam must be a URI scheme', () => {
    const args = new AuthorizationArgs();
    args.setCustomSchemeParam('my.game+v2-beta');
    expect(args.customSchemeParam()).toBe('my.game+v2-beta');
    for (const bad of ['2game', 'my game', 'mygame:', 'my/game', ''])
      expect(thrown(() => args.setCustomSchemeParam(bad)).type).toBe(ErrorType.ValidationError);
  });
});

describe('AuthorizationArgs: redirect URI shapes', () => {
  it('CustomSchemeParam <scheme> gives <scheme>:/authorize/callback', () => {
    expect(authorizeRedirectUri('1234', 'mygame')).toBe('mygame:/authorize/callback');
  });

  it('unset CustomSchemeParam gives platform-<application_id>:/authorize/callback', () => {
    expect(authorizeRedirectUri('1234')).toBe('platform-1234:/authorize/callback');
  });
});

describe('AuthorizationArgs: record operations', () => {
  it('copy construction and clone() copy every field; changing the copy leaves the original', async () => {
    const original = await filled();
    for (const copy of [new AuthorizationArgs(original), original.clone()]) {
      expect(copy.isValid()).toBe(true);
      expect([
        copy.clientId(),
        copy.scopes(),
        copy.state(),
        copy.nonce(),
        copy.codeChallenge(),
        copy.integrationType(),
        copy.customSchemeParam(),
      ]).toEqual([
        original.clientId(),
        original.scopes(),
        original.state(),
        original.nonce(),
        original.codeChallenge(),
        original.integrationType(),
        original.customSchemeParam(),
      ]);
      copy.setScopes('openid');
      expect(original.scopes()).toBe('openid sdk.social_layer');
    }
  });

  it("copy assignment replaces every field with the other record's", async () => {
    const source = await filled();
    const target = new AuthorizationArgs();
    target.setScopes('identify');
    expect(target.assign(source)).toBe(target);
    expect(target.scopes()).toBe('openid sdk.social_layer');
    expect(target.customSchemeParam()).toBe('mygame');
    expect(source.isValid()).toBe(true);
  });

  it('move construction takes the fields and leaves the source invalid, without throwing', async () => {
    const source = await filled();
    const moved = AuthorizationArgs.move(source);
    expect(moved.scopes()).toBe('openid sdk.social_layer');
    expect(moved.isValid()).toBe(true);
    expect(source.isValid()).toBe(false);
    expect(thrown(() => source.scopes()).message).toMatch(/moved from/);
    // Moving an invalid record does not throw either: the result is invalid.
    expect(() => AuthorizationArgs.move(source)).not.toThrow();
    expect(AuthorizationArgs.move(source).isValid()).toBe(false);
  });

  it('copy assignment into a moved-from record makes it valid again, as in C++ (only nullobj refuses assignment)', async () => {
    const source = await filled();
    const target = AuthorizationArgs.move(source);
    expect(source.isValid()).toBe(false);
    expect(() => source.assign(target)).not.toThrow();
    expect(source.isValid()).toBe(true);
    expect(source.state()).toBe('st');
    // A copy: changing one leaves the other alone.
    source.setState('changed');
    expect(target.state()).toBe('st');
    // Assigning an invalid record (here nullobj itself) to a moved-from one does not throw either.
    const other = await filled();
    AuthorizationArgs.move(other);
    expect(() => other.assign(AuthorizationArgs.nullobj)).not.toThrow();
    expect(other.isValid()).toBe(false);
  });

  it('move assignment takes the fields and leaves the source invalid, without throwing', async () => {
    const source = await filled();
    const target = new AuthorizationArgs();
    expect(() => target.moveAssign(source)).not.toThrow();
    expect(target.state()).toBe('st');
    expect(source.isValid()).toBe(false);
    expect(() => target.moveAssign(AuthorizationArgs.nullobj)).not.toThrow();
    expect(target.isValid()).toBe(false);
    expect(AuthorizationArgs.nullobj.isValid()).toBe(false);
  });

  it('the boolean conversion is true exactly when the record holds a valid object', async () => {
    const args = new AuthorizationArgs();
    expect(args.isValid()).toBe(true);
    expect(args.valueOf()).toBe(true);
    AuthorizationArgs.move(args);
    expect(args.isValid()).toBe(false);
    expect(args.valueOf()).toBe(false);
    expect(AuthorizationArgs.nullobj.valueOf()).toBe(false);
  });

  it('nullobj is a static uninitialized instance: reading, setting or assigning it throws a clear error', () => {
    const nullobj = AuthorizationArgs.nullobj;
    expect(nullobj).toBe(AuthorizationArgs.nullobj);
    expect(thrown(() => nullobj.scopes()).message).toMatch(/nullobj holds no object/);
    expect(thrown(() => nullobj.setScopes('openid')).message).toMatch(/nullobj/);
    expect(thrown(() => nullobj.assign(new AuthorizationArgs())).message).toMatch(/nullobj/);
    // A move into nullobj cannot throw, and does not make it valid.
    nullobj.moveAssign(new AuthorizationArgs());
    expect(nullobj.isValid()).toBe(false);
    // A copy of nullobj is as invalid as nullobj, but is not nullobj.
    const copy = new AuthorizationArgs(nullobj);
    expect(copy.isValid()).toBe(false);
    expect(copy).not.toBe(nullobj);
  });
});
