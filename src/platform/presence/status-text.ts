/**
 * The status text a client shows for a rich presence activity ("Playing Tic-Tac-Toe"): a verb
 * for the activity type, then the field the activity's `status_display_type` chooses (0 the
 * name, 1 the state, 2 the details). A chosen field that is empty falls back to the name, so
 * the text always says what is being done.
 */

/** `status_display_type` values: which field becomes the status text. */
export const STATUS_DISPLAY_TYPE = { NAME: 0, STATE: 1, DETAILS: 2 } as const;

/** The activity types that read as a verb before the text; Custom (4) has none. */
const VERBS: Readonly<Record<number, string>> = {
  0: 'Playing',
  1: 'Streaming',
  2: 'Listening to',
  3: 'Watching',
  5: 'Competing in',
};

/** What {@link statusText} reads of an activity. */
export interface StatusTextActivity {
  name: string;
  type: number;
  state?: string | null;
  details?: string | null;
  status_display_type?: number | null;
}

/**
 * The activity's status text.
 * @example
 * statusText({ name: 'Tic-Tac-Toe', type: 0 }) // 'Playing Tic-Tac-Toe'
 * statusText({ name: 'Tic-Tac-Toe', type: 0, state: 'Bob to move', status_display_type: 1 }) // 'Playing Bob to move'
 */
export function statusText(activity: StatusTextActivity): string {
  // A custom status (type 4) is its state alone, with no verb.
  if (activity.type === 4) return activity.state || activity.name;
  const chosen =
    activity.status_display_type === STATUS_DISPLAY_TYPE.STATE
      ? activity.state
      : activity.status_display_type === STATUS_DISPLAY_TYPE.DETAILS
        ? activity.details
        : null;
  return `${VERBS[activity.type] ?? VERBS[0]} ${chosen || activity.name}`;
}
