/**
 * The sandbox host page of `platformpp()` (served at `/__platformpp/`): runs the platform in
 * this browser, seeds its world, and embeds the dev server's activity page as the user named by
 * `?as=` (alice when absent). Two tabs as two users run one activity instance. Built into the
 * package as one self-contained script (`dist/sandbox/host.js`) with the shared worker beside it.
 * With `platformpp({ server })` the page joins that platform server instead (`config.server`).
 */
import '../../components/index';
import type { ActivityFrame } from '../../components/activity-frame';
import type { PlatformElement } from '../../components/platform-element';
import { APPLICATION_SECRET_PATH, SANDBOX_BASE, type SandboxPageConfig } from '../options';
import { insecureOriginProblem } from './insecure-origin';
import { BRIDGE_PATH } from '../platform-bridge';
import { serveBackendBridge } from './bridge-client';
import { renderHostView, type HostViewState } from './host-view';
import { browserWorldRecord, ensureSandboxWorld, sandboxWorldRecord, WORLD_KEY, type SandboxWorld } from './world';

const config = JSON.parse(document.getElementById('platformpp-sandbox')!.textContent!) as SandboxPageConfig;
const current = new URL(location.href).searchParams.get('as') ?? config.users[0];

const header = document.createElement('header');
const platform = document.createElement('pp-platform') as PlatformElement;
platform.serviceWorkerUrl = `${SANDBOX_BASE}sw.js`;
// A server that wants a control secret is reached through the plugin's relay, which holds it.
platform.server = config.serverPath ? new URL(config.serverPath, location.origin).href : config.server;
document.body.append(header);
// A platform server that did not start: never the browser's own sandbox in its place. Without a
// service worker (an insecure origin) the platform cannot run: the page says so instead.
if (!config.serverError && !insecureOriginProblem(window)) document.body.append(platform);

const state: HostViewState = {
  applicationName: config.application.name,
  applicationId: config.application.id,
  users: config.users,
  current,
  frame: null,
  problem: config.problem,
  onReset: () => void reset(),
};
const show = (change: Partial<HostViewState>) => renderHostView(header, Object.assign(state, change));
show({});

async function reset(): Promise<void> {
  await platform.sandbox.reset();
  localStorage.removeItem(WORLD_KEY);
  location.reload();
}

/** Embeds the activity as the tab's user once the platform runs and the world exists. */
async function start(): Promise<void> {
  if (config.serverError) throw new Error(`the platform server did not start: ${config.serverError}`);
  // The page says it already (its HTML shows the same words before any script runs).
  if (insecureOriginProblem(window)) return;
  await platform.whenReady();
  // The activity's backend reaches the platform through the dev server and this tab (on a
  // platform server, it reaches the server itself).
  if (!config.server) serveBackendBridge(BRIDGE_PATH);
  const record = config.server ? sandboxWorldRecord(platform.sandbox) : browserWorldRecord(localStorage);
  const world: SandboxWorld = await ensureSandboxWorld(platform.sandbox, config, record);
  // The plugin holds the client secret (this page may be open on other devices): it sets it on the server.
  if (config.secretHeldByPlugin) await applySecretThroughPlugin(world.application_id);
  show({ applicationId: world.application_id });
  const userId = world.users[current];
  if (!userId) {
    show({ problem: `There is no user "${current}" in the sandbox: use ?as=${config.users.join(', ?as=')}.` });
    return;
  }
  platform.currentUserId = userId;
  const frame = document.createElement('pp-activity-frame') as ActivityFrame;
  frame.setAttribute('application-id', world.application_id);
  frame.setAttribute('guild-id', world.guild_id);
  frame.setAttribute('channel-id', world.channel_id);
  frame.setAttribute('src', config.activity);
  const follow = () => show({ frame: { status: frame.status, rpc: frame.rpcStatus, error: frame.error } });
  frame.addEventListener('pp-activity-status', () => queueMicrotask(follow));
  frame.addEventListener('pp-activity-handshake', () => queueMicrotask(follow));
  platform.append(frame);
  // For the browser console and for tests driving the sandbox.
  Object.assign(globalThis, { platformppSandbox: { platform, frame, world, config } });
}

/** Has the plugin set the client secret it holds on the server's application. */
async function applySecretThroughPlugin(applicationId: string): Promise<void> {
  const response = await fetch(APPLICATION_SECRET_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ application_id: applicationId }),
  });
  if (!response.ok) throw new Error(`the client secret could not be set on the platform server (${response.status})`);
}

start().catch((error: unknown) => {
  // <pp-platform> shows its own failure; anything else (seeding) is shown here.
  if (platform.status !== 'error')
    show({ problem: `The sandbox could not start: ${error instanceof Error ? error.message : String(error)}` });
  console.error('platformpp: the sandbox could not start', error);
});
