/**
 * The errors the activity SDK rejects with: what the host answered (an ERROR frame or a CLOSE),
 * or that nothing came back in time, with what was waited for and why it may hang.
 */

/**
 * The host answered a command with an ERROR frame (or closed the connection): `code` is the
 * platform's RPC error code (4000 invalid payload, 4006 invalid permissions, 4009 invalid
 * token, ...) or, for a CLOSE, its close code.
 * @example
 * try { await sdk.commands.getChannel({ channel_id }); } catch (e) { if (e instanceof RpcError && e.code === 4005) showGone(); }
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** The command that failed, or 'CLOSE' when the host closed the connection. */
    readonly cmd: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** Nothing came back from the host in time; the message says what was awaited and why. */
export class RpcTimeoutError extends Error {
  constructor(
    message: string,
    /** What was waited for: 'READY' or a command name. */
    readonly awaited: string,
    readonly timeoutMs: number,
  ) {
    super(message);
    this.name = 'RpcTimeoutError';
  }
}
