/**
 * The activity's page as plain DOM: the status line, the players, who is here, the 3×3 board
 * of buttons (each labelled with its row, column and mark) and the "New game" button.
 */
import { isOver, mayMove, type GameState, type Mark } from './game';

/** Where a cell is, in words. */
export const CELL_NAMES = [
  'top left',
  'top',
  'top right',
  'left',
  'centre',
  'right',
  'bottom left',
  'bottom',
  'bottom right',
];

/** What the view shows. */
export interface BoardModel {
  game: GameState;
  me: { id: string; name: string } | null;
  /** Names of the instance's participants. */
  here: string[];
  busy: boolean;
}

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The page's elements, and what clicking them does. */
export class BoardView {
  readonly #status = byId<HTMLParagraphElement>('status');
  readonly #players = byId<HTMLParagraphElement>('players');
  readonly #here = byId<HTMLParagraphElement>('here');
  readonly #error = byId<HTMLParagraphElement>('error');
  readonly #newGame = byId<HTMLButtonElement>('new-game');
  readonly #retry = byId<HTMLButtonElement>('retry');
  readonly #cells: HTMLButtonElement[];

  constructor(onCell: (cell: number) => void, onNewGame: () => void) {
    const board = byId<HTMLDivElement>('board');
    this.#cells = CELL_NAMES.map((_, cell) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'cell';
      button.addEventListener('click', () => onCell(cell));
      board.append(button);
      return button;
    });
    this.#newGame.addEventListener('click', onNewGame);
    this.render({
      game: { board: Array(9).fill(null), players: {}, next: 'X', winner: null, line: null, draw: false },
      me: null,
      here: [],
      busy: true,
    });
  }

  /** Shows a line of progress (connecting, authorizing…). */
  say(text: string): void {
    this.#status.textContent = text;
  }

  /** Shows an error in words (and keeps it until the next one or `clearError`). */
  fail(text: string): void {
    this.#error.textContent = text;
    this.#error.hidden = false;
  }

  clearError(): void {
    this.#error.hidden = true;
    this.#retry.hidden = true;
  }

  /**
   * Shows `text` as the status with a button named `label`; resolves once it is pressed (the
   * player may try again after cancelling the consent dialog, or after a failure).
   */
  offerRetry(text: string, label: string): Promise<void> {
    this.say(text);
    this.#retry.textContent = label;
    this.#retry.hidden = false;
    this.#retry.focus();
    return new Promise((resolve) =>
      this.#retry.addEventListener(
        'click',
        () => {
          this.#retry.hidden = true;
          resolve();
        },
        { once: true },
      ),
    );
  }

  /** Shows the game. */
  render({ game, me, here, busy }: BoardModel): void {
    const name = (mark: Mark) => game.players[mark]?.name;
    game.board.forEach((mark, cell) => {
      const button = this.#cells[cell];
      button.textContent = mark ?? '';
      button.dataset.mark = mark ?? '';
      button.classList.toggle('win', game.line?.includes(cell) ?? false);
      button.disabled = busy || !me || mark !== null || !mayMove(game, me.id);
      button.setAttribute('aria-label', `${CELL_NAMES[cell]}: ${mark ?? 'empty'}`);
    });
    this.#players.textContent = `X: ${name('X') ?? 'first to move'} · O: ${name('O') ?? 'second to move'}`;
    this.#here.textContent = here.length ? `Here now: ${here.join(', ')}` : '';
    this.#newGame.disabled = busy || game.board.every((c) => c === null);
    if (!me) return;
    if (game.winner) this.say(game.players[game.winner]?.id === me.id ? 'You won!' : `${name(game.winner)} won.`);
    else if (game.draw) this.say('A draw.');
    else if (mayMove(game, me.id))
      this.say(game.players[game.next] ? `Your turn (${game.next}).` : `Your move: you play ${game.next}.`);
    else if (!isOver(game))
      this.say(
        name(game.next) ? `Waiting for ${name(game.next)} (${game.next})…` : 'Waiting for a second player to take O…',
      );
  }
}
