// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { STATUS_DISPLAY_TYPE, statusText } from '../../../../src/platform/presence/status-text';

const game = { name: 'Tic-Tac-Toe', type: 0, state: 'Bob Okafor to move', details: 'Alice Martin vs Bob Okafor' };

describe('statusText (spec: Activity record, a field choice (name, state or details) controls the status text)', () => {
  it('shows the name by default and for status_display_type 0 (name)', () => {
    expect(statusText(game)).toBe('Playing Tic-Tac-Toe');
    expect(statusText({ ...game, status_display_type: null })).toBe('Playing Tic-Tac-Toe');
    expect(statusText({ ...game, status_display_type: STATUS_DISPLAY_TYPE.NAME })).toBe('Playing Tic-Tac-Toe');
  });

  it('shows the state for status_display_type 1 (state)', () => {
    expect(statusText({ ...game, status_display_type: STATUS_DISPLAY_TYPE.STATE })).toBe('Playing Bob Okafor to move');
  });

  it('shows the details for status_display_type 2 (details)', () => {
    expect(statusText({ ...game, status_display_type: STATUS_DISPLAY_TYPE.DETAILS })).toBe(
      'Playing Alice Martin vs Bob Okafor',
    );
  });

  it('falls back to the name when the chosen field is missing or empty', () => {
    expect(statusText({ name: 'Tic-Tac-Toe', type: 0, status_display_type: 1 })).toBe('Playing Tic-Tac-Toe');
    expect(statusText({ name: 'Tic-Tac-Toe', type: 0, details: '', status_display_type: 2 })).toBe(
      'Playing Tic-Tac-Toe',
    );
  });

  it.each([
    [1, 'Streaming Live'],
    [2, 'Listening to Live'],
    [3, 'Watching Live'],
    [5, 'Competing in Live'],
    [9, 'Playing Live'],
  ])('reads activity type %i with its verb', (type, text) => {
    expect(statusText({ name: 'Live', type })).toBe(text);
  });

  it('shows a custom status (type 4) as its state, with no verb', () => {
    expect(statusText({ name: 'Custom Status', type: 4, state: 'Back in five' })).toBe('Back in five');
    expect(statusText({ name: 'Custom Status', type: 4 })).toBe('Custom Status');
  });
});
