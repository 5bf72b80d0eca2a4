/**
 * How the shell names a lobby and counts its members, wherever it shows one (the left column,
 * the lobby's view, the members column, the call bar).
 */

/** The lobby's name: its `name` metadata, else the secret this browser joined it with, else its id. */
export function lobbyName(lobby: { id: string; metadata: Record<string, string> | null }, secret?: string): string {
  return lobby.metadata?.name || secret || `Lobby ${lobby.id.slice(-6)}`;
}

/** "1 member", "3 members". */
export function memberCount(n: number): string {
  return `${n} ${n === 1 ? 'member' : 'members'}`;
}
