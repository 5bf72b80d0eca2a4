/**
 * The sandbox host page of `platformpp()` (served at `/__platformpp/`): runs the platform in
 * this browser, seeds its world, and embeds the dev server's activity page as the users named by
 * `?as=` (alice when absent; `?as=alice,bob` runs both side by side in this tab). Two tabs as two
 * users run one activity instance too. Beside the players, the cockpit (`./cockpit.ts`): the RPC
 * inspector, what the platform's clients do, the clock and the world. Built into the package as
 * one self-contained script (`dist/sandbox/host.js`) with the shared worker beside it. With
 * `platformpp({ server })` the page joins that platform server instead (`config.server`).
 */
import '../../components/index';
import type { PlatformElement } from '../../components/platform-element';
import { APPLICATION_SECRET_PATH, SANDBOX_BASE, type SandboxPageConfig } from '../options';
import { insecureOriginProblem } from './insecure-origin';
import { BRIDGE_PATH } from '../platform-bridge';
import { serveBackendBridge } from './bridge-client';
import { mountCockpit } from './cockpit';
import { COCKPIT_CSS } from './cockpit-style';
import { renderHostView, type HostViewState } from './host-view';
import { faultsPanel } from './faults-panel';
import { createPlayer, playersOf, type Player } from './players';
import { browserWorldRecord, ensureSandboxWorld, sandboxWorldRecord, WORLD_KEY, type SandboxWorld } from './world';

const config = JSON.parse(document.getElementById('platformpp-sandbox')!.textContent!) as SandboxPageConfig;
const asked = playersOf(new URL(location.href).searchParams.get('as'), config.users);

const style = document.createElement('style');
style.textContent = COCKPIT_CSS;
document.head.append(style);
const header = document.createElement('header');
const layout = document.createElement('div');
layout.className = 'layout';
const main = document.createElement('main');
main.setAttribute('aria-label', 'Activities');
const aside = document.createElement('aside');
aside.className = 'cockpit';
aside.setAttribute('aria-label', 'Cockpit');
const platform = document.createElement('pp-platform') as PlatformElement;
platform.serviceWorkerUrl = `${SANDBOX_BASE}sw.js`;
/** The browser gives this page no service worker (an insecure origin: a phone on the LAN). */
const withoutServiceWorker = insecureOriginProblem(window) !== null;
/** On a platform server the page runs without one too: the dev server sends its platform paths there. */
const runsHere = !withoutServiceWorker || config.server !== null || config.serverPath !== null;
// Without a service worker, this origin is the server (the dev server relays it, with any control
// secret); with one, a server that wants a control secret is reached through the plugin's relay.
platform.server = withoutServiceWorker
  ? location.origin
  : config.serverPath
    ? new URL(config.serverPath, location.origin).href
    : config.server;
const stage = document.createElement('div');
stage.className = 'stage';
platform.append(stage);
main.append(platform);
layout.append(main, aside);
document.body.append(header);
// A platform server that did not start: never the browser's own sandbox in its place. Without a
// service worker (an insecure origin) the browser's sandbox cannot run: the page says so instead.
if (!config.serverError && runsHere) document.body.append(layout);

const state: HostViewState = {
  applicationName: config.application.name,
  applicationId: config.application.id,
  users: config.users,
  current: asked.players,
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

/** Embeds the activity as each of the tab's users once the platform runs and the world exists. */
async function start(): Promise<void> {
  if (config.serverError) throw new Error(`the platform server did not start: ${config.serverError}`);
  // The page says it already (its HTML shows the same words before any script runs).
  if (!runsHere) return;
  await platform.whenReady();
  // The activity's backend reaches the platform through the dev server and this tab (on a
  // platform server, it reaches the server itself).
  if (!config.server) serveBackendBridge(BRIDGE_PATH);
  const record = config.server ? sandboxWorldRecord(platform.sandbox) : browserWorldRecord(localStorage);
  const world: SandboxWorld = await ensureSandboxWorld(platform.sandbox, config, record);
  // The plugin holds the client secret (this page may be open on other devices): it sets it on the server.
  if (config.secretHeldByPlugin) await applySecretThroughPlugin(world.application_id);
  show({ applicationId: world.application_id });
  if (asked.unknown.length > 0 || asked.players.length === 0) {
    const unknown = asked.unknown.join(', ') || '(nobody)';
    show({ problem: `There is no user "${unknown}" in the sandbox: use ?as=${config.users.join(', ?as=')}.` });
    return;
  }
  platform.currentUserId = world.users[asked.players[0]];
  const players: Player[] = [];
  const cockpit = mountCockpit(aside, { world, sandbox: platform.sandbox, platform, players, reset });
  aside.append(faultsPanel(platform.sandbox, { userId: platform.currentUserId, browser: !config.server }));
  for (const username of asked.players)
    players.push(
      createPlayer(
        stage,
        username,
        world.users[username],
        { application_id: world.application_id, src: config.activity },
        { guild_id: world.guild_id, channel_id: world.channel_id },
        'desktop',
      ),
    );
  cockpit.clientEvents.adopt(players);
  const frame = players[0].frame;
  const follow = () => show({ frame: { status: frame.status, rpc: frame.rpcStatus, error: frame.error } });
  frame.addEventListener('pp-activity-status', () => queueMicrotask(follow));
  frame.addEventListener('pp-activity-handshake', () => queueMicrotask(follow));
  // For the browser console and for tests driving the sandbox.
  Object.assign(globalThis, { platformppSandbox: { platform, frame, players, world, config, cockpit } });
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
