// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { Client } from '../../../src/sdk/client';
import { ErrorType, SdkError } from '../../../src/sdk/errors';
import { checkSdkVersion, formatSdkVersion, SDK_VERSION } from '../../../src/sdk/version';

describe('SDK versioning: <major>.<minor>.<build> and the five-minor support window', () => {
  it('this SDK is 1.10.<build>, as Client.getVersionMajor/Minor/Patch say', () => {
    expect([Client.getVersionMajor(), Client.getVersionMinor()]).toEqual([1, 10]);
    expect(Client.getVersionPatch()).toBe(SDK_VERSION.build);
    expect(formatSdkVersion()).toMatch(/^1\.10\.\d+$/);
  });

  it('from 1.10 the window is 1.6 through 1.10: every build of those minors is supported', () => {
    for (const version of ['1.6.0', '1.6.3', '1.7.12', '1.8.0', '1.9.1', '1.10.0', '1.10.7', ' 1.8.2 ']) {
      expect(checkSdkVersion(version), version).toMatchObject({ supported: true });
    }
  });

  it('1.5 and earlier are end-of-life, refused with a message naming the window', () => {
    for (const version of ['1.5.3', '1.5.0', '1.0.0', '0.9.9']) {
      const verdict = checkSdkVersion(version);
      expect(verdict.supported, version).toBe(false);
      if (!verdict.supported) expect(verdict.reason).toMatch(/end-of-life.*1\.6 through 1\.10/);
    }
  });

  it('a version is <major>.<minor>.<build>: "1.6" or "1.6.0.1" is refused with a message naming that form', () => {
    for (const version of ['1.6', '1', '1.6.0.1', '1.6.', 'v1.6.0']) {
      expect(checkSdkVersion(version), version).toEqual({
        supported: false,
        reason: `${JSON.stringify(version)} is not an SDK version of the form <major>.<minor>.<build>, for example "1.10.0".`,
      });
    }
  });

  it('input that is not a string is refused with the same clear message, never a TypeError, and a Client says so as a ValidationError', () => {
    const cases: [unknown, string][] = [
      [1.6, 'a number'],
      [null, 'null'],
      [undefined, 'undefined'],
      [{ major: 1 }, 'an object'],
      [[1, 6, 0], 'an array'],
    ];
    for (const [input, what] of cases) {
      expect(checkSdkVersion(input)).toEqual({
        supported: false,
        reason: `The SDK version must be a string of the form <major>.<minor>.<build>, for example "1.10.0"; got ${what}.`,
      });
    }
    let error: unknown;
    try {
      new Client({ baseUrl: 'http://x', sdkVersion: 1.6 as unknown as string });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).type).toBe(ErrorType.ValidationError);
    expect((error as SdkError).message).toBe(
      'The SDK version must be a string of the form <major>.<minor>.<build>, for example "1.10.0"; got a number.',
    );
  });

  it('versions newer than this SDK, and text that is not a version, are refused too', () => {
    for (const version of ['1.11.0', '2.0.0', 'latest', '1.x', ''])
      expect(checkSdkVersion(version).supported, version).toBe(false);
  });

  it('a Client for a game built against an end-of-life SDK refuses to construct, with a clear message', () => {
    let error: unknown;
    try {
      new Client({ baseUrl: 'http://x', sdkVersion: '1.5.3' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).type).toBe(ErrorType.ValidationError);
    expect((error as SdkError).message).toBe(
      'SDK 1.5.3 is end-of-life: the support window is the five most recent minor versions, 1.6 through 1.10. Build the game against SDK 1.6 or later.',
    );
    expect(() => new Client({ baseUrl: 'http://x', sdkVersion: '1.6.0' })).not.toThrow();
  });
});

describe('Client construction', () => {
  it('outside a page it needs baseUrl, and says so', () => {
    expect(() => new Client()).toThrow(/baseUrl/);
  });

  it('the HTTP request timeout defaults to 30000 ms and takes only positive whole milliseconds', () => {
    const client = new Client({ baseUrl: 'http://x' });
    expect(client.getHttpRequestTimeout()).toBe(30_000);
    client.setHttpRequestTimeout(5);
    expect(client.getHttpRequestTimeout()).toBe(5);
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => client.setHttpRequestTimeout(bad)).toThrow(/positive whole number/);
  });
});
