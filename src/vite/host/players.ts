/**
 * Every player in one tab: one activity frame per user named in `?as=` (`?as=alice,bob` puts
 * Alice and Bob side by side), each a real participant of the same instance, running as its own
 * user (`user-id`), so each activity authorizes and gets its own token. Each player sits in a
 * device frame (`./device-frames.ts`).
 */
import type { ActivityFrame } from '../../components/activity-frame';
import { showOnDevice, type DeviceId } from './device-frames';

/** Where a player's activity runs: the world's guild voice channel, or elsewhere. */
export interface LaunchPlace {
  guild_id: string | null;
  channel_id: string;
}

/** One player of the tab. */
export interface Player {
  username: string;
  userId: string;
  frame: ActivityFrame;
  /** The element sized as the player's device screen. */
  screen: HTMLElement;
  device: DeviceId;
  /** Stops following the activity's loads for the device's insets. */
  stopDevice: () => void;
}

/** A username as the page shows it. */
export function displayName(username: string): string {
  return username ? username[0].toUpperCase() + username.slice(1) : username;
}

/**
 * The usernames a tab runs as: `?as=` split on commas, each known to the world, without
 * repeats; the first configured user when `?as=` is absent. Unknown names are returned apart.
 * @example playersOf('alice,bob', ['alice', 'bob', 'chen']) // { players: ['alice', 'bob'], unknown: [] }
 */
export function playersOf(as: string | null, users: readonly string[]): { players: string[]; unknown: string[] } {
  const asked = (as ?? users[0] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const players = [...new Set(asked.filter((name) => users.includes(name)))];
  return { players, unknown: asked.filter((name) => !users.includes(name)) };
}

/**
 * Creates the player of `username` inside `stage`: a labelled region with the user's name,
 * the device's screen, and the activity frame in it.
 */
export function createPlayer(
  stage: HTMLElement,
  username: string,
  userId: string,
  activity: { application_id: string; src: string },
  place: LaunchPlace,
  device: DeviceId,
): Player {
  const region = document.createElement('section');
  region.className = 'player';
  const heading = document.createElement('h2');
  heading.id = `player-${username}`;
  heading.textContent = displayName(username);
  region.setAttribute('aria-labelledby', heading.id);
  const screen = document.createElement('div');
  screen.className = 'device-screen';
  const frame = document.createElement('pp-activity-frame') as ActivityFrame;
  frame.setAttribute('application-id', activity.application_id);
  frame.setAttribute('user-id', userId);
  frame.setAttribute('src', activity.src);
  placeFrame(frame, place);
  screen.append(frame);
  region.append(heading, screen);
  stage.append(region);
  return { username, userId, frame, screen, device, stopDevice: showOnDevice(screen, frame, device) };
}

/** Puts a frame's activity in `place` (a change restarts it there, as a new launch would). */
export function placeFrame(frame: ActivityFrame, place: LaunchPlace): void {
  if (place.guild_id) frame.setAttribute('guild-id', place.guild_id);
  else frame.removeAttribute('guild-id');
  frame.setAttribute('channel-id', place.channel_id);
}

/** Moves a player to another device. */
export function changeDevice(player: Player, device: DeviceId): void {
  player.stopDevice();
  player.device = device;
  player.stopDevice = showOnDevice(player.screen, player.frame, device);
}
