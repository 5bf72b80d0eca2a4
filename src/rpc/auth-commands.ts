/**
 * AUTHORIZE and AUTHENTICATE: the two commands an activity may send before it has a session.
 * AUTHORIZE asks the user in the host page's consent dialog and answers an authorization code
 * from the platform's authorization endpoint; the activity's server exchanges it at
 * `/oauth2/token`; AUTHENTICATE then binds the access token to this frame.
 */
import * as v from 'valibot';
import { ApiError } from '../platform/core/errors';
import type { CommandContext } from './context';
import type { CommandMap } from './protocol';
import type { COMMAND_ARGS } from './schemas';

type Args<C extends keyof typeof COMMAND_ARGS> = v.InferOutput<(typeof COMMAND_ARGS)[C]>;

function rpcError(name: Parameters<typeof ApiError.of>[0], detail: string): ApiError {
  return ApiError.of(name, `${ApiError.of(name).message}: ${detail}`);
}

/**
 * Shows the consent dialog (skipped for `prompt: 'none'` when every scope was granted before)
 * and answers `{code}`. "Cancel" is ERROR 5000 (access_denied); a client id other than the
 * frame's application is 4007; unknown scopes are 4000.
 */
export async function authorize(
  ctx: CommandContext,
  args: Args<'AUTHORIZE'>,
): Promise<CommandMap['AUTHORIZE']['data']> {
  if (args.client_id !== ctx.frame.application_id) {
    throw rpcError(
      'RPC_INVALID_CLIENT_ID',
      `client_id is not the application of this frame (${ctx.frame.application_id})`,
    );
  }
  const query = {
    client_id: args.client_id,
    scope: Array.isArray(args.scope) ? args.scope.join(' ') : args.scope,
    state: args.state,
    code_challenge: args.code_challenge,
    code_challenge_method: args.code_challenge_method,
    prompt: args.prompt,
  };
  const user = ctx.frame.user;
  const request = await ctx.platform.describeAuthorize(query, user.id);
  const granted =
    (args.prompt === 'none' && request.authorized === true) ||
    (await ctx.ui.requestConsent({
      application: request.application,
      scopes: request.scopes,
      user: { id: user.id, username: user.username },
    }));
  if (!granted) throw ApiError.of('RPC_OAUTH2_ERROR');
  const answer = await ctx.platform.decideAuthorize(query, user.id, true);
  if (!answer.code) throw ApiError.of('RPC_OAUTH2_ERROR');
  return { code: answer.code };
}

/**
 * Validates the access token with the platform and opens the frame's session. A token the
 * platform does not know, or one of another application, is 4009; one of another user than the
 * frame's is 4010.
 */
export async function authenticate(
  ctx: CommandContext,
  args: Args<'AUTHENTICATE'>,
): Promise<CommandMap['AUTHENTICATE']['data']> {
  const { effective_scopes: allowed, ...session } = await ctx.platform.session(args.access_token);
  if (session.application.id !== ctx.frame.application_id) {
    throw rpcError('RPC_INVALID_TOKEN', 'the access token belongs to another application');
  }
  if (session.user.id !== ctx.frame.user.id) {
    throw rpcError('RPC_INVALID_USER', 'the access token belongs to another user than the one running this activity');
  }
  ctx.authenticate({
    access_token: args.access_token,
    granted: session.scopes,
    // The platform's view, not a local expansion: it knows what the application may have now.
    scopes: new Set(allowed),
    user: session.user,
    application: session.application,
  });
  return { access_token: args.access_token, ...session };
}
