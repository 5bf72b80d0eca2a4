// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { AuthorizationArgs } from '../../../src/sdk/authorization-args';
import { Client } from '../../../src/sdk/client';
import { LoggingSeverity, SdkLogger, type SdkBuild } from '../../../src/sdk/logger';
import { AuthorizationTokenType } from '../../../src/sdk/types';
import { createSdkHarness, type SdkHarness } from './sdk-harness';

let h: SdkHarness;
afterEach(async () => {
  await h?.close();
});

/**
 * A full session with a log callback at Verbose: authorize, tokens, connect, a lobby, a refused
 * request (Warning) and a throwing callback (Error). Answers every line and every secret seen.
 */
async function session(build: SdkBuild) {
  h = await createSdkHarness();
  const lines: { message: string; severity: LoggingSeverity }[] = [];
  const client = h.client({ userId: h.world.alice.id, build });
  client.addLogCallback((message, severity) => lines.push({ message, severity }), LoggingSeverity.Verbose);
  const { challenge, verifier } = await client.createAuthorizationCodeVerifier();
  const args = new AuthorizationArgs();
  args.setScopes(Client.getDefaultCommunicationScopes());
  args.setCodeChallenge(challenge);
  const { code, redirectUri } = await client.authorize(args);
  const tokens = await client.getToken(h.world.application.id, code, verifier, redirectUri);
  await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
  client.setStatusChangedCallback(() => {
    throw new Error(`callback failed while holding Bearer ${tokens.accessToken}`);
  });
  await client.connect();
  const lobby = await client.createOrJoinLobby('log-test');
  await client.sendLobbyMessage(lobby.id, 'hello');
  const refreshed = await client.refreshToken(h.world.application.id, tokens.refreshToken!);
  await client.getLobbyMessagesWithLimit('1', 5).catch(() => undefined);
  await client.revokeToken(h.world.application.id, refreshed.refreshToken!);
  const secrets = [
    tokens.accessToken,
    tokens.refreshToken!,
    refreshed.accessToken,
    refreshed.refreshToken!,
    code,
    verifier,
  ];
  return { lines, secrets };
}

describe('SDK logging: bearer tokens are filtered at every level', () => {
  it('a debug build logs Verbose, Info, Warning and Error, and no line at any level carries a token, a code or a verifier', async () => {
    const { lines, secrets } = await session('debug');
    const severities = new Set(lines.map((l) => l.severity));
    expect(severities).toEqual(
      new Set([LoggingSeverity.Verbose, LoggingSeverity.Info, LoggingSeverity.Warning, LoggingSeverity.Error]),
    );
    for (const { message } of lines) for (const secret of secrets) expect(message).not.toContain(secret);
    expect(lines.some((l) => l.severity === LoggingSeverity.Error && l.message.includes('Bearer [redacted]'))).toBe(
      true,
    );
  });

  it('a release build logs only Error and Warning, even to a callback that asked for Verbose', async () => {
    const { lines, secrets } = await session('release');
    expect(lines.length).toBeGreaterThan(0);
    expect(new Set(lines.map((l) => l.severity))).toEqual(new Set([LoggingSeverity.Warning, LoggingSeverity.Error]));
    for (const { message } of lines) for (const secret of secrets) expect(message).not.toContain(secret);
  });

  it('the release build is the default', async () => {
    h = await createSdkHarness();
    const lines: LoggingSeverity[] = [];
    const client = h.client();
    client.addLogCallback((_m, severity) => lines.push(severity), LoggingSeverity.Verbose);
    await client.getLobbyMessagesWithLimit('1', 1).catch(() => undefined);
    await client.updateToken(AuthorizationTokenType.Bearer, 'x'.repeat(40));
    await client.getLobbyMessagesWithLimit('1', 1).catch(() => undefined);
    expect(lines).toEqual([LoggingSeverity.Warning]);
  });
});

describe('SdkLogger', () => {
  it('a callback receives lines at or above its minimum severity; None switches it off', () => {
    const log = new SdkLogger('debug');
    const seen: Record<string, LoggingSeverity[]> = { info: [], error: [], none: [] };
    log.addCallback((_m, s) => seen.info.push(s), LoggingSeverity.Info);
    log.addCallback((_m, s) => seen.error.push(s), LoggingSeverity.Error);
    log.addCallback((_m, s) => seen.none.push(s), LoggingSeverity.None);
    log.verbose('v');
    log.info('i');
    log.warning('w');
    log.error('e');
    expect(seen).toEqual({ info: [2, 3, 4], error: [4], none: [] });
  });

  it('redacts Bearer, Bot and Basic credentials, token parameters, and the literal tokens the client holds', () => {
    const log = new SdkLogger('debug');
    const lines: string[] = [];
    log.addCallback((m) => lines.push(m), LoggingSeverity.Verbose);
    const held = 'AbCdEf0123456789_held-token';
    log.addSecret(held);
    log.verbose('Authorization: Bearer abc.def-123');
    log.info('Authorization: Bot MTIz.abc.def');
    log.warning(`token=${held}&refresh_token=r3fr3sh`);
    log.error(`a bare ${held} in a sentence`);
    expect(lines).toEqual([
      'Authorization: Bearer [redacted]',
      'Authorization: Bot [redacted]',
      'token=[redacted]&refresh_token=[redacted]',
      'a bare [redacted] in a sentence',
    ]);
  });

  it('a throwing callback does not stop the others', () => {
    const log = new SdkLogger('release');
    const lines: string[] = [];
    log.addCallback(() => {
      throw new Error('boom');
    }, LoggingSeverity.Warning);
    log.addCallback((m) => lines.push(m), LoggingSeverity.Warning);
    log.warning('still delivered');
    expect(lines).toEqual(['still delivered']);
  });
});
