/**
 * What a message may hold, checked before anything is read or written: the flags a request may
 * set; with IS_COMPONENTS_V2, no `content`, `embeds`, `sticker_ids` or `poll` (they "do not
 * work" there); a forward carries only its reference; a message is never empty; stickers and
 * polls as the sandbox has them.
 */
import { ApiError } from '../core/errors';
import { POLL_DURATION_DEFAULT_H } from '../core/limits';
import { CHANNEL_MESSAGE_FLAGS, MESSAGE_REFERENCE_TYPES, type StoredPoll } from '../../store/records/messages';
import { EDIT_MESSAGE_FLAGS, type MessageCreateInput, type MessageEditInput, type PollRequest } from './schemas';

type FieldErrors = Record<string, string | { code: string; message: string }>;

const LEGACY_WITH_V2 = {
  code: 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
  message: 'This field cannot be used when the message has the IS_COMPONENTS_V2 flag.',
};

/** True when the value is set to something that is not empty. */
function present(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0;
  return true;
}

/** Throws 400 50035 naming `flags` when it sets a bit outside `allowed`. */
export function checkFlags(flags: number, allowed: number): void {
  if ((flags & ~allowed) !== 0)
    throw ApiError.invalidForm({
      flags: { code: 'MESSAGE_FLAGS_INVALID', message: 'These message flags cannot be set here.' },
    });
}

/** The legacy fields a V2 message may not use, named. */
function v2Conflicts(input: Pick<MessageCreateInput, 'content' | 'embeds' | 'sticker_ids' | 'poll'>): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of ['content', 'embeds', 'sticker_ids', 'poll'] as const)
    if (present(input[field])) errors[field] = LEGACY_WITH_V2;
  return errors;
}

/**
 * The create request's shape: V2 conflicts, a forward's extra fields, stickers (the sandbox
 * has none, so every id is unknown), and emptiness (400 50006).
 */
export function checkCreateShape(input: MessageCreateInput, fileCount: number): void {
  const v2 = ((input.flags ?? 0) & CHANNEL_MESSAGE_FLAGS.IS_COMPONENTS_V2) !== 0;
  const errors: FieldErrors = v2 ? v2Conflicts(input) : {};
  const forward = input.message_reference?.type === MESSAGE_REFERENCE_TYPES.FORWARD;
  if (forward) {
    for (const field of ['content', 'embeds', 'components', 'sticker_ids', 'poll', 'attachments'] as const) {
      if (present(input[field]))
        errors[field] ??= {
          code: 'MESSAGE_FORWARD_ONLY_REFERENCE',
          message: 'A forward carries only its message_reference.',
        };
    }
    if (fileCount > 0)
      errors.attachments ??= {
        code: 'MESSAGE_FORWARD_ONLY_REFERENCE',
        message: 'A forward carries only its message_reference.',
      };
  }
  if (!v2)
    (input.sticker_ids ?? []).forEach(
      (_, i) => (errors[`sticker_ids.${i}`] = { code: 'UNKNOWN_STICKER', message: 'Unknown sticker.' }),
    );
  if (Object.keys(errors).length > 0) throw ApiError.invalidForm(errors);
  const empty =
    !present(input.content?.trim()) &&
    !present(input.embeds) &&
    !present(input.components) &&
    fileCount === 0 &&
    !present(input.poll);
  if (empty && !forward) throw ApiError.of('CANNOT_SEND_EMPTY_MESSAGE');
}

/**
 * The edit request's shape given the message as stored. Only SUPPRESS_EMBEDS and
 * IS_COMPONENTS_V2 change (other bits are ignored, as on the platform); IS_COMPONENTS_V2 can be
 * set but never removed. With it, `content` must be null and `embeds` / `sticker_ids` empty,
 * and a message becoming V2 must reset the content and embeds it has. A `poll` is only accepted
 * where the caller allows it (a deferred interaction response).
 */
export function checkEditShape(
  input: MessageEditInput,
  current: { flags: number; content: string; embeds: readonly unknown[] },
  options: { allowPoll: boolean },
): { flags: number; v2: boolean } {
  const wasV2 = (current.flags & CHANNEL_MESSAGE_FLAGS.IS_COMPONENTS_V2) !== 0;
  const requested = input.flags ?? current.flags;
  const flags = (current.flags & ~EDIT_MESSAGE_FLAGS) | (requested & EDIT_MESSAGE_FLAGS);
  const v2 = (flags & CHANNEL_MESSAGE_FLAGS.IS_COMPONENTS_V2) !== 0;
  const errors: FieldErrors = v2 ? v2Conflicts(input) : {};
  if (v2 && !wasV2) {
    if (current.content !== '' && input.content !== null && input.content !== '') errors.content ??= LEGACY_WITH_V2;
    if (current.embeds.length > 0 && !(input.embeds === null || input.embeds?.length === 0))
      errors.embeds ??= LEGACY_WITH_V2;
  }
  if (wasV2 && !v2)
    errors.flags = {
      code: 'MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG',
      message: 'The IS_COMPONENTS_V2 flag cannot be removed.',
    };
  if (present(input.poll) && !options.allowPoll)
    errors.poll ??= { code: 'MESSAGE_POLL_NOT_EDITABLE', message: 'A poll cannot be added by editing this message.' };
  if (!v2)
    (input.sticker_ids ?? []).forEach(
      (_, i) => (errors[`sticker_ids.${i}`] = { code: 'UNKNOWN_STICKER', message: 'Unknown sticker.' }),
    );
  if (Object.keys(errors).length > 0) throw ApiError.invalidForm(errors);
  return { flags, v2 };
}

/** The stored poll of a poll request, expiring `duration` hours (24 unless given) after `now`. */
export function toStoredPoll(poll: PollRequest, now: number): StoredPoll {
  return {
    question: { text: poll.question.text },
    answers: poll.answers.map((a, i) => ({ answer_id: i + 1, poll_media: a.poll_media })),
    expiry: new Date(now + (poll.duration ?? POLL_DURATION_DEFAULT_H) * 3_600_000).toISOString(),
    allow_multiselect: poll.allow_multiselect ?? false,
    layout_type: poll.layout_type ?? 1,
  };
}
