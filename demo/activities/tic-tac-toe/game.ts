/**
 * The rules of Tic-Tac-Toe over a lobby's messages. A game is the log of its messages: each
 * move is a message with metadata `{ttt: "move", cell: "0".."8"}`, and `{ttt: "new-game"}`
 * starts over. Every player replays the same log in the same order (the lobby's), so all agree
 * on the board without a server: a move that is not legal at its place in the log (a cell
 * taken, the wrong player, a finished game) is simply not a move.
 */

/** A player's mark. */
export type Mark = 'X' | 'O';

/** Who plays a mark. */
export interface Player {
  id: string;
  name: string;
}

/** What the rules read of a lobby message. */
export interface GameMessage {
  id: string;
  author: { id: string; username: string; global_name: string | null };
  metadata: Record<string, string> | null;
}

/** A game as the log says it stands. */
export interface GameState {
  board: (Mark | null)[];
  players: Partial<Record<Mark, Player>>;
  /** Whose turn it is (meaningless once over). */
  next: Mark;
  winner: Mark | null;
  /** The three cells of the winning line. */
  line: number[] | null;
  draw: boolean;
}

/** The eight lines of three. */
export const LINES = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
];

/** The metadata of a move message. */
export const moveMetadata = (cell: number) => ({ ttt: 'move', cell: String(cell) });
/** The metadata of a new-game message. */
export const NEW_GAME_METADATA = { ttt: 'new-game' } as const;

/** The other mark. */
export const other = (mark: Mark): Mark => (mark === 'X' ? 'O' : 'X');

/** A game before its first move. */
export function newGame(): GameState {
  return { board: Array(9).fill(null), players: {}, next: 'X', winner: null, line: null, draw: false };
}

/** Whether the game is over. */
export const isOver = (game: GameState) => game.winner !== null || game.draw;

/** Whether `userId` may play the next move: it is their mark, or the mark is free and the other is not theirs. */
export function mayMove(game: GameState, userId: string): boolean {
  if (isOver(game)) return false;
  const player = game.players[game.next];
  return player ? player.id === userId : game.players[other(game.next)]?.id !== userId;
}

/** The game after one message (unchanged when the message is no legal move). */
export function applyMessage(game: GameState, message: GameMessage): GameState {
  const kind = message.metadata?.ttt;
  if (kind === 'new-game') return newGame();
  if (kind !== 'move') return game;
  const cell = Number(message.metadata?.cell);
  if (!Number.isInteger(cell) || cell < 0 || cell > 8 || game.board[cell] || !mayMove(game, message.author.id))
    return game;
  const mark = game.next;
  const board = game.board.slice();
  board[cell] = mark;
  const players = {
    ...game.players,
    [mark]: game.players[mark] ?? {
      id: message.author.id,
      name: message.author.global_name || message.author.username,
    },
  };
  const line = LINES.find((l) => l.every((i) => board[i] === mark)) ?? null;
  return { board, players, next: other(mark), winner: line ? mark : null, line, draw: !line && board.every(Boolean) };
}

/**
 * The game a log of messages (oldest first) describes.
 * @example replay(messages).board // ['X', null, 'O', ...]
 */
export function replay(messages: GameMessage[]): GameState {
  return messages.reduce(applyMessage, newGame());
}
