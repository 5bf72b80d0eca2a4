/**
 * A payload as the text a client receives. The gateway sends one event's dispatch to many
 * sessions in one synchronous loop, each with the same `d` and its own `s`: `d` is serialized
 * once for the loop, and each session's text is put together around it, byte for byte what
 * `JSON.stringify` of the payload gives.
 */
import type { GatewayPayload } from './protocol';

/** The `d` serialized last, and its JSON; forgotten at the end of the turn, so no later change to it is missed. */
let serialized: { d: object; json: string } | null = null;

function forget(): void {
  serialized = null;
}

/** True for a payload whose keys are, in order, `op`, `d`, `s`, `t`, with `d` an object (as the gateway numbers dispatches). */
function isNumberedDispatch(payload: GatewayPayload): payload is GatewayPayload<object> & { s: number; t: string } {
  if (typeof payload.d !== 'object' || payload.d === null) return false;
  if (typeof payload.s !== 'number' || typeof payload.t !== 'string') return false;
  const keys = Object.keys(payload);
  return keys.length === 4 && keys[0] === 'op' && keys[1] === 'd' && keys[2] === 's' && keys[3] === 't';
}

/**
 * `JSON.stringify(payload)`, serializing a dispatch's `d` once for every session it goes to
 * in the same turn.
 * @example transport.send(payloadText({ op: 0, d: message, s: 7, t: 'LOBBY_MESSAGE_CREATE' }));
 */
export function payloadText(payload: GatewayPayload): string {
  if (!isNumberedDispatch(payload)) return JSON.stringify(payload);
  if (serialized?.d !== payload.d) {
    if (serialized === null) queueMicrotask(forget);
    serialized = { d: payload.d, json: JSON.stringify(payload.d) };
  }
  return `{"op":${JSON.stringify(payload.op)},"d":${serialized.json},"s":${JSON.stringify(payload.s)},"t":${JSON.stringify(payload.t)}}`;
}
