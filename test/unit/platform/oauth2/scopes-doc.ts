/**
 * `docs/scopes.md`, rendered from the access table: the page a user reads to know which token a
 * route takes. `npm run docs:scopes` writes it; a test fails when the page and the table differ.
 */
import { RULE_DATES } from '../../../../src/platform/core/dates';
import type { OpenAccess, RouteAccess, RouteKey } from '../../../../src/platform/oauth2/route-access';
import { ROUTE_ACCESS, SANDBOX_ACCESS } from '../../../../src/platform/oauth2/route-access-table';

/** Where the page is. */
export const SCOPES_DOC = 'docs/scopes.md';

/** What a user reads for an open route. */
const OPEN_WORDS: Record<OpenAccess, string> = {
  public: 'none: public',
  client: 'the client authenticates itself (OAuth2 client credentials, or `client_id` in the body)',
  'interaction token': 'the interaction token in the path',
  'webhook token': "the webhook's token in the path (an interaction's where the id is an application's)",
  'parent token': "the parent application's access token in the body",
  sandbox: 'none: sandbox control (a deployed server wants its secret in `X-Sandbox-Secret`)',
};

/** A route path as the platform's docs write it: `{lobby_id}` for `:lobby_id`. */
const pathWords = (key: RouteKey) => key.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** One row of the table. */
function row(route: string, access: RouteAccess): string {
  if (access.open) return `| \`${route}\` | no | no | ${OPEN_WORDS[access.open]} |`;
  const bearer =
    access.bearer === false
      ? 'no'
      : access.bearer.length === 0
        ? 'any scope'
        : (access.scopeByResource ?? access.bearer.map((s) => `\`${s}\``).join(' or '));
  const removed = access.removed
    ? ` (removed for applications from ${new Date(RULE_DATES[access.removed.from]).toISOString().slice(0, 10)})`
    : '';
  return `| \`${route}\`${removed} | ${access.bot ? 'yes' : 'no'} | ${bearer} | |`;
}

/** The page, from the table. */
export function renderScopesDoc(): string {
  const rows = (Object.entries(ROUTE_ACCESS) as [RouteKey, RouteAccess][]).map(([key, access]) =>
    row(pathWords(key), access),
  );
  return `# Tokens and scopes of every route

Which token each route of the HTTP API takes, and for a user's OAuth2 token which scopes. This
page is generated from the access table in \`src/platform/oauth2/route-access-table.ts\` (run
\`npm run docs:scopes\`), the same table every request is checked against before its route runs;
a test fails when the two differ.

- **Bot**: \`Authorization: Bot <token>\`, an application's bot token.
- **Bearer**: \`Authorization: Bearer <token>\`, a user's OAuth2 access token. The token needs at
  least one of the scopes named ("any scope": any token the user gave the application). The SDK's
  umbrella scopes count as the scopes they expand to (\`sdk.social_layer\` → \`lobbies.write\`,
  \`relationships.read\`, ...; see [the HTTP API](http-api.md)).
- **Without a token**: routes that take neither token, and how they know their caller.
- **Sandbox control**: the control API and the consent decision (\`POST /oauth2/authorize\`, the
  simulated user's click). In the browser and on a local server they are open to the developer;
  on a deployed server (its control secret set, or deployed without one) each answers \`401\`
  unless the request carries the deployment's secret in \`X-Sandbox-Secret\`. The guard reads
  this table, whatever the route's path.

Refusals, in this order: a missing, malformed or unknown token is \`401 {"message": "401:
Unauthorized", "code": 0}\`; a route removed for applications answers its own error; a user's
token on a bot route is \`403\` / \`20002\`, a bot on a user route \`403\` / \`20001\`; a user's
token without the scope is \`403\` / \`50001\` "Missing OAuth2 scope: ...". What a route checks
of the resource itself (membership, permissions, which application it belongs to) comes after:
another application's bot gets \`403\` or \`404\` for this application's lobbies, guilds and
commands.

Paths are below \`{base_url}\` (\`/api/v10\`, also \`/api\`), except those starting with
\`/oauth2\` (also at the root), \`/attachments\`, \`/.well-known\` and \`/sandbox\`.
\`GET /gateway\` and \`/gateway/bot\` exist on the server host only.

| Route | Bot | Bearer | Without a token |
|---|---|---|---|
${rows.join('\n')}
| every \`/sandbox/...\` route | no | no | ${OPEN_WORDS[SANDBOX_ACCESS.open!]} |
`;
}
