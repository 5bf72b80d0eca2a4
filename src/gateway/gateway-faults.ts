/**
 * Gateway faults on demand (`POST /sandbox/faults`): which connections a fault reaches, and what
 * it does to each. The gateway hears of a fault in its announcement (the service worker's, or
 * the server sandbox's own) and applies it at once to the connections it has then; connections
 * made later are not touched, so a client that reconnects finds a healthy gateway.
 */
import type { FaultRecord, FaultTarget } from '../store/records/faults';
import type { GatewaySessionRecord } from '../store/schema';
import { GATEWAY_CLOSE_CODES, GATEWAY_OPCODES, opPayload } from './protocol';
import type { GatewayConnection } from './connection';
import type { GatewaySession } from './session';

/** Whether a fault's target takes in a session (no target: every session). */
export function faultReaches(
  target: FaultTarget,
  record: Pick<GatewaySessionRecord, 'session_id' | 'user_id' | 'application_id'>,
): boolean {
  if (target.session_id !== undefined) return record.session_id === target.session_id;
  if (target.user_id !== undefined) return record.user_id === target.user_id;
  if (target.application_id !== undefined) return record.application_id === target.application_id;
  return true;
}

/**
 * Applies a gateway fault to the identified connections it reaches; `release` takes a session
 * the fault took off its connection (Invalid Session), and ends it when it may not be resumed.
 * Resolves to how many connections it reached.
 */
export function applyGatewayFault(
  fault: FaultRecord,
  connections: Iterable<GatewayConnection>,
  release: (session: GatewaySession, ended: boolean) => void,
): number {
  let reached = 0;
  for (const connection of [...connections]) {
    const session = connection.session;
    if (connection.closed || !session || !faultReaches(fault as FaultTarget, session.record)) continue;
    reached += 1;
    switch (fault.type) {
      case 'reconnect':
        connection.sendPayload(opPayload(GATEWAY_OPCODES.RECONNECT));
        connection.closeWith(GATEWAY_CLOSE_CODES.UNKNOWN_ERROR, 'Reconnect and resume.');
        break;
      case 'invalid_session':
        connection.invalidateSession(fault.resumable);
        release(session, !fault.resumable);
        break;
      case 'zombie':
        connection.zombie();
        break;
      case 'close':
        connection.closeWith(fault.code, 'Closed by a sandbox fault.');
        break;
      case 'hold_dispatches':
        connection.hold(fault.duration_ms);
        break;
      default:
        reached -= 1;
    }
  }
  return reached;
}
