/**
 * The rich presence activity (spec: Activity record), defined once for everything that sets,
 * stores or shows one: the activity SDK and the RPC host (SET_ACTIVITY), the game SDK
 * (`Client::UpdateRichPresence`), the platform's presence route and its records, and the
 * gateway's PRESENCE_UPDATE. A leaf of the tree (it imports nothing), so that the activity SDK
 * can share it without loading anything of the platform.
 */

/** Activity types a game or an activity may set (spec: SET_ACTIVITY): Playing 0, Listening 2, Watching 3, Competing 5. */
export const SET_ACTIVITY_TYPES = [0, 2, 3, 5] as const;

/** One of {@link SET_ACTIVITY_TYPES}. */
export type RichPresenceType = (typeof SET_ACTIVITY_TYPES)[number];

/**
 * A rich presence activity as a game or an activity sets it (spec: Activity record): SET_ACTIVITY,
 * `Client::UpdateRichPresence` and `PUT /users/@me/activities` all take this shape. `state_url`,
 * `details_url`, `assets.large_url` and `assets.small_url` are the links of the state text, the
 * details text and the two images; `status_display_type` picks the field that becomes the status
 * text (0 name, 1 state, 2 details). The name is the application's.
 */
export interface RichPresenceInput {
  type?: RichPresenceType;
  state?: string | null;
  state_url?: string | null;
  details?: string | null;
  details_url?: string | null;
  status_display_type?: 0 | 1 | 2 | null;
  timestamps?: { start?: number; end?: number } | null;
  assets?: {
    large_image?: string | null;
    large_text?: string | null;
    large_url?: string | null;
    small_image?: string | null;
    small_text?: string | null;
    small_url?: string | null;
  } | null;
  /** `size` is `[current, max]`. */
  party?: { id?: string | null; size?: [number, number] | null } | null;
  secrets?: { join?: string; match?: string } | null;
  instance?: boolean | null;
}

/**
 * A rich presence activity as the platform stores it, answers it (SET_ACTIVITY, the presence
 * route) and sends it in PRESENCE_UPDATE: the input with the application's name and id.
 */
export interface PresenceActivity extends Omit<RichPresenceInput, 'type'> {
  name: string;
  type: RichPresenceType;
  application_id: string;
  created_at: number;
}
