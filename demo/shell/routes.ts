/**
 * The shell's routes, kept in the URL's hash so that links, the keyboard and the back button
 * work: `#/lobby/<id>`, `#/channel/<id>`, `#/dm/<user id>`, `#/bot`, `#/dev/<panel>`. The user and
 * the server the page joined are in the query instead (`page-query.ts`).
 */
import { DEV_PANELS, type DevPanel } from './dev-panels';

/** A parsed route. */
export type Route =
  | { view: 'lobby'; id: string }
  | { view: 'channel'; id: string }
  | { view: 'dm'; id: string }
  | { view: 'bot' }
  | { view: 'dev'; panel: DevPanel };

/**
 * The route a hash names; `fallback` for an empty or unknown one.
 * @example parseRoute('#/dev/clock', home) // { view: 'dev', panel: 'clock' }
 */
export function parseRoute(hash: string, fallback: Route): Route {
  const [view, arg] = hash.replace(/^#\/?/, '').split('/');
  if ((view === 'lobby' || view === 'channel' || view === 'dm') && arg) return { view, id: decodeURIComponent(arg) };
  if (view === 'bot') return { view: 'bot' };
  if (view === 'dev')
    return { view: 'dev', panel: DEV_PANELS.some((p) => p.id === arg) ? (arg as DevPanel) : 'events' };
  return fallback;
}

/** The route as the nav's links write it (`lobby/<id>`, `dev`), for `aria-current`. */
export function routeKey(route: Route): string {
  switch (route.view) {
    case 'lobby':
    case 'channel':
    case 'dm':
      return `${route.view}/${route.id}`;
    default:
      return route.view;
  }
}

/** A short name of the route's view, for the tab bar on narrow screens. */
export function routeLabel(route: Route): string {
  return { lobby: 'Chat', channel: 'Channel', dm: 'Chat', bot: "Bot's view", dev: 'Developer' }[route.view];
}
