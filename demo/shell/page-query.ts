/**
 * The page's query: the user a tab plays (`?as=bob`), so that it keeps its user across reloads,
 * and the platform server the page joined (`?server=<url>`), which every link to another user
 * keeps. The view is in the hash (`routes.ts`).
 */

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
