/**
 * The shell's routes, kept in the URL's hash so that links, the keyboard and the back button
 * work: `#/lobby/<id>`, `#/channel/<id>`, `#/dm/<user id>`, `#/bot`, `#/dev/<panel>`. The user is in the query
 * (`?as=bob`), so a tab keeps its user across reloads; so is the platform server the page joined
 * (`?server=<url>`), which every link to another user keeps.
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
 * The query of the page as `username`, on the same platform (the `?server=` of this page kept).
 * @example userQuery('bob', '?server=http%3A%2F%2F127.0.0.1%3A8787&as=alice') // '?server=http%3A%2F%2F127.0.0.1%3A8787&as=bob'
 */
export function userQuery(username: string, search = location.search): string {
  const params = new URLSearchParams(search);
  const query = new URLSearchParams();
  const server = params.get('server');
  if (server) query.set('server', server);
  query.set('as', username);
  return `?${query}`;
}

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
