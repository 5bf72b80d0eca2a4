/**
 * The cockpit beside the players: one collapsible section per panel (the RPC inspector, what
 * the platform's clients do, the clock and the world), each a labelled region with its heading.
 * The inspector records from the start, so the first HANDSHAKE is in it.
 */
import type { PlatformElement } from '../../components/platform-element';
import type { SandboxClient } from '../../components/sandbox-client';
import { ClientEventsPanel } from './client-events-panel';
import { RpcInspector } from './inspector-panel';
import { displayName, type Player } from './players';
import { WorldPanel } from './world-panel';
import type { SandboxWorld } from './world';

/** The cockpit's panels. */
export interface Cockpit {
  inspector: RpcInspector;
  clientEvents: ClientEventsPanel;
  world: WorldPanel;
}

/** A collapsible section of the cockpit, returning the element its panel renders into. */
function section(parent: HTMLElement, id: string, title: string, open: boolean): HTMLElement {
  const details = document.createElement('details');
  details.open = open;
  details.id = id;
  const summary = document.createElement('summary');
  const heading = document.createElement('h2');
  heading.id = `${id}-title`;
  heading.textContent = title;
  summary.append(heading);
  const panel = document.createElement('div');
  panel.className = 'panel';
  panel.setAttribute('role', 'region');
  panel.setAttribute('aria-labelledby', heading.id);
  details.append(summary, panel);
  parent.append(details);
  return panel;
}

/**
 * Builds the cockpit into `aside` (created before the players' frames start, so the inspector
 * hears their first messages).
 * @example const cockpit = mountCockpit(aside, { world, sandbox, platform, reset }); cockpit.attachPlayers(players);
 */
export function mountCockpit(
  aside: HTMLElement,
  context: { world: SandboxWorld; sandbox: SandboxClient; platform: PlatformElement; players: Player[]; reset(): void },
): Cockpit {
  const names = new Map(Object.entries(context.world.users).map(([name, id]) => [id, displayName(name)]));
  const inspector = new RpcInspector(section(aside, 'rpc-inspector', 'RPC inspector', true), (id) =>
    id ? (names.get(id) ?? id) : 'proxy',
  );
  inspector.start();
  const clientEvents = new ClientEventsPanel(section(aside, 'client-events', "What the platform's clients do", true), {
    players: context.players,
    world: context.world,
    sandbox: context.sandbox,
    platform: context.platform,
  });
  clientEvents.render();
  const world = new WorldPanel(section(aside, 'clock-and-world', 'The clock and the world', false), context);
  world.render();
  void world.refresh();
  return { inspector, clientEvents, world };
}
