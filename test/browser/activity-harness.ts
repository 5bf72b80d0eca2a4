/**
 * Helpers for the activity browser tests: a sandbox world (users, an application, a guild),
 * `<pp-platform>` and `<pp-activity-frame>` mounted in the test page, and the activity's window.
 */
import { expect } from 'vitest';
import '../../src/components/index';
import type { ActivityFrame } from '../../src/components/activity-frame';
import type { PlatformElement } from '../../src/components/platform-element';
import { SandboxClient } from '../../src/components/sandbox-client';
import { registerPlatformWorker, resetSandbox } from './harness';

/** Where the test activities are. */
export const FIXTURES = '/test/browser/fixtures';

/** A fresh sandbox: alice and bob in alice's guild, an application alice owns, tokens for both. */
export async function createActivityWorld(scopes = 'identify guilds guilds.members.read rpc.activities.write') {
  await registerPlatformWorker();
  await resetSandbox();
  const sandbox = new SandboxClient();
  const alice = (await sandbox.createUser({ username: 'alice' })).user;
  const bob = (await sandbox.createUser({ username: 'bob' })).user;
  const app = await sandbox.createApplication({ name: 'Chess Club', owner_id: alice.id });
  const { guild, channels } = await sandbox.createGuild({ name: 'Guild', owner_id: alice.id });
  await sandbox.putGuildMember(guild.id, bob.id);
  const voice = channels.find((c) => c.type === 2)!;
  const token = async (userId: string) =>
    (await sandbox.createToken({ application_id: app.application.id, user_id: userId, scopes })).access_token;
  const text = channels.find((c) => c.type === 0)!;
  return {
    sandbox,
    alice,
    bob,
    application: app.application,
    bot: app.bot,
    botToken: app.bot_token,
    clientSecret: app.client_secret,
    guild,
    voice,
    text,
    token,
  };
}

/** Mounts `<pp-platform>` running as `userId` (on the hub `hubName`, default the platform's) and waits until it is ready. */
export async function mountPlatform(userId: string, hubName?: string): Promise<PlatformElement> {
  const platform = document.createElement('pp-platform');
  platform.currentUserId = userId;
  if (hubName) platform.hubName = hubName;
  document.body.append(platform);
  await platform.whenReady();
  return platform;
}

/** Mounts an activity frame inside `parent` and waits until its activity page set `global`. */
export async function mountFrame<T = any>(
  parent: HTMLElement,
  attributes: Record<string, string>,
  global = 'sdk',
): Promise<{ frame: ActivityFrame; activity: T; window: Window & Record<string, any> }> {
  const frame = document.createElement('pp-activity-frame');
  for (const [name, value] of Object.entries(attributes)) frame.setAttribute(name, value);
  frame.style.height = '200px';
  parent.append(frame);
  await expect.poll(() => frame.status, { timeout: 10_000 }).toBe('running');
  const window = frame.iframe!.contentWindow as Window & Record<string, any>;
  await expect.poll(() => window[global], { timeout: 10_000 }).toBeTruthy();
  return { frame, activity: window[global] as T, window };
}

/** Resolves with the next `type` event `target` fires that `accept` accepts. */
export function nextEvent<T = any>(
  target: EventTarget,
  type: string,
  accept: (detail: T) => boolean = () => true,
): Promise<T> {
  return new Promise((resolve) => {
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<T>).detail ?? (event as MessageEvent<T>).data;
      if (!accept(detail)) return;
      target.removeEventListener(type, listener);
      resolve(detail);
    };
    target.addEventListener(type, listener);
  });
}

/** Exchanges an authorization code at `/oauth2/token`, from `fetcher`'s page (an activity's server would). */
export async function exchangeCode(
  fetcher: typeof fetch,
  clientId: string,
  clientSecret: string,
  code: string,
): Promise<{ access_token: string; scope: string }> {
  const response = await fetcher('/.proxy/oauth2/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      client_secret: clientSecret,
    }).toString(),
  });
  expect(response.status).toBe(200);
  return response.json();
}
