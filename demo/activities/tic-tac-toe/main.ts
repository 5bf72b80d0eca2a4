/**
 * Tic-Tac-Toe, a sample activity on the platformpp activity SDK: the handshake with the host
 * page, sign-in (AUTHORIZE with the host's consent dialog, token exchange, AUTHENTICATE), the
 * instance's participants as they join and leave (ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE), the
 * match through a lobby, and rich presence (SET_ACTIVITY) that follows the game.
 *
 * Its application id is not known when it is built (the demo creates the application when it
 * first runs), so it reads it from its own query: the host loads `?client_id=<id>`.
 */
import { ActivitySdk, RpcError, type ActivityInput, type RpcParticipant } from '../../../src/activity/index';
import { errorMessage } from '../../shell/errors';
import { BoardView, CELL_NAMES } from './board-view';
import { moveMetadata, NEW_GAME_METADATA, replay, type GameState } from './game';
import { MatchLobby } from './match-lobby';
import { signIn, type SignedIn } from './sign-in';

/** What the page knows. */
const app = {
  sdk: null as ActivitySdk | null,
  player: null as SignedIn | null,
  match: null as MatchLobby | null,
  game: replay([]) as GameState,
  participants: [] as RpcParticipant[],
  busy: true,
  startedAt: Date.now(),
  lastPresence: '',
  presenceTimer: undefined as ReturnType<typeof setTimeout> | undefined,
};

/** The RPC error AUTHORIZE answers when the player presses "Cancel" in the consent dialog. */
const CONSENT_REFUSED = 5000;

const nameOf = (u: { username: string; global_name?: string | null }) => u.global_name || u.username;
const view = new BoardView(
  (cell) => void play(cell),
  () => void restart(),
);

function render(): void {
  const me = app.player?.user;
  view.render({
    game: app.game,
    me: me ? { id: me.id, name: nameOf(me) } : null,
    here: app.participants.map(nameOf),
    busy: app.busy,
  });
}

/** Shows an error in words, and hands it to the host's log (CAPTURE_LOG) as well. */
function report(what: string, error: unknown): void {
  const message = `${what} failed: ${errorMessage(error)}`;
  view.fail(message);
  // The page shows the error already; a log line the host could not take adds nothing to it.
  if (app.sdk?.isReady) void app.sdk.commands.captureLog({ level: 'error', message }).catch(() => undefined);
}

/**
 * The rich presence of the game: who plays whom, whose turn, how many are here. Once two play,
 * the status text shows the details ("Playing Alice vs Bob", status_display_type 2); before,
 * the game's name.
 */
function presence(sdk: ActivitySdk): ActivityInput {
  const { game } = app;
  const x = game.players.X?.name;
  const o = game.players.O?.name;
  const details = x && o ? `${x} vs ${o}` : 'Waiting for an opponent';
  const state = game.winner
    ? `${game.players[game.winner]?.name} won`
    : game.draw
      ? 'A draw'
      : `${game.players[game.next]?.name ?? game.next} to move`;
  const here = Math.max(1, app.participants.length);
  return {
    type: 0,
    details,
    state,
    status_display_type: x && o ? 2 : 0,
    party: { id: sdk.instanceId, size: [here, Math.max(2, here)] },
    timestamps: { start: app.startedAt },
  };
}

/** Sets the presence when it changed, a moment after the last change (moves come in bursts). */
function updatePresence(): void {
  const sdk = app.sdk;
  if (!sdk || !app.player) return;
  clearTimeout(app.presenceTimer);
  app.presenceTimer = setTimeout(() => {
    const activity = presence(sdk);
    const key = JSON.stringify({ ...activity, timestamps: null });
    if (key === app.lastPresence) return;
    app.lastPresence = key;
    sdk.commands.setActivity({ activity }).catch((error) => report('Setting your rich presence', error));
  }, 200);
}

async function play(cell: number): Promise<void> {
  const { match, player, game } = app;
  if (!match || !player) return;
  await match
    .send(`${nameOf(player.user)} plays ${game.next} in the ${CELL_NAMES[cell]}.`, moveMetadata(cell))
    .catch((error) => report('Playing the move', error));
}

async function restart(): Promise<void> {
  const { match, player } = app;
  if (!match || !player) return;
  await match
    .send(`${nameOf(player.user)} started a new game.`, { ...NEW_GAME_METADATA })
    .catch((error) => report('Starting a new game', error));
}

/**
 * Leaving closes the match. The game leaves the player's presence without a word from here:
 * the host clears what SET_ACTIVITY set once the frame stops, also when this page dies.
 */
function closeMatchOnLeave(): void {
  addEventListener('pagehide', () => app.match?.close());
}

async function start(): Promise<void> {
  const clientId = new URLSearchParams(location.search).get('client_id');
  if (!clientId) {
    view.fail(
      'client_id is missing from this page’s URL: the host loads /activities/tic-tac-toe/?client_id=<application id>.',
    );
    return;
  }
  try {
    const sdk = (app.sdk = new ActivitySdk(clientId));
    view.say('Connecting to the host…');
    await sdk.ready();
    app.player = await signInUntilAuthorized(sdk, clientId);
    closeMatchOnLeave();
    view.say('Joining the match…');
    app.participants = (await sdk.commands.getActivityInstanceConnectedParticipants()).participants;
    await sdk.subscribe('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', ({ participants }) => {
      app.participants = participants;
      render();
      updatePresence();
    });
    app.match = new MatchLobby(
      app.player.access_token,
      sdk.channelId ?? sdk.instanceId,
      (messages) => {
        app.game = replay(messages);
        render();
        updatePresence();
      },
      report,
      (status, reason) => {
        // The session ended for good (its token refused): moves from others no longer arrive.
        if (status === 'closed') report('Following the match', new Error(reason ?? 'the gateway closed the session'));
      },
    );
    await app.match.open();
    app.busy = false;
    view.clearError();
    render();
    updatePresence();
  } catch (error) {
    report('Starting Tic-Tac-Toe', error);
    // The page starts over from the handshake: a new load is a new connection to the host.
    await view.offerRetry('Tic-Tac-Toe could not start.', 'Try again');
    location.reload();
  }
}

/**
 * Signs the player in. Cancelling the consent dialog (RPC error 5000) is the player's choice,
 * not a failure: the page says so and offers to ask again, as often as they like.
 */
async function signInUntilAuthorized(sdk: ActivitySdk, clientId: string): Promise<SignedIn> {
  for (;;) {
    view.say('Asking you to authorize Tic-Tac-Toe…');
    try {
      return await signIn(sdk, clientId);
    } catch (error) {
      if (!(error instanceof RpcError) || error.code !== CONSENT_REFUSED) throw error;
      await view.offerRetry(
        'You did not authorize Tic-Tac-Toe. It needs to know who you are to play.',
        'Authorize again',
      );
    }
  }
}

void start();
