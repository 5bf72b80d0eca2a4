/**
 * The device each simulated user runs the platform's client on, for what a browser cannot
 * sense: its thermal state (THERMAL_STATE_UPDATE), which the platform's mobile clients read from
 * the operating system. The sandbox sets it (`PUT /sandbox/users/{id}/device`); a change tells
 * the user's client sessions, whose activities hear THERMAL_STATE_UPDATE. Nominal until set.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { clientAudience } from './client-events';
import type { ClientDeviceRecord, ThermalState } from '../../store/records/activities';

/** Thermal states by name (the public embedded-app SDK's `ThermalStateTypeObject`). */
export const THERMAL_STATES = { NOMINAL: 0, FAIR: 1, SERIOUS: 2, CRITICAL: 3 } as const;

/** `PUT /sandbox/users/{id}/device`. */
export const ClientDeviceSchema = jsonObject({
  thermal_state: v.picklist([0, 1, 2, 3], 'Must be 0 (nominal), 1 (fair), 2 (serious) or 3 (critical).'),
});

/** The device as the sandbox control API answers it. */
export function serializeClientDevice(record: ClientDeviceRecord) {
  return { user_id: record.user_id, thermal_state: record.thermal_state };
}

/** The user's device (nominal when never set). */
export async function clientDeviceOf(ctx: PlatformContext, userId: string): Promise<ClientDeviceRecord> {
  return (
    (await ctx.db.get('client_devices', userId)) ?? {
      user_id: userId,
      thermal_state: THERMAL_STATES.NOMINAL,
      updated_at: 0,
    }
  );
}

/**
 * Sets the thermal state of the user's device (an unknown user is 404 / 10013); a change tells
 * the user's client sessions (THERMAL_STATE_UPDATE), setting the same state again tells nobody.
 * @example await setThermalState(ctx, userId, THERMAL_STATES.SERIOUS);
 */
export async function setThermalState(
  ctx: PlatformContext,
  userId: string,
  thermalState: ThermalState,
): Promise<ClientDeviceRecord> {
  return write(ctx, ['users', 'client_devices'], async (tx, emit) => {
    if (!(await tx.store('users').get(userId))) throw ApiError.of('UNKNOWN_USER');
    const before = await tx.store('client_devices').get(userId);
    const device: ClientDeviceRecord = { user_id: userId, thermal_state: thermalState, updated_at: ctx.clock.now() };
    if ((before?.thermal_state ?? THERMAL_STATES.NOMINAL) === thermalState) return before ?? device;
    await tx.store('client_devices').put(device);
    emit({
      type: 'THERMAL_STATE_UPDATE',
      data: { user_id: userId, thermal_state: thermalState },
      audience: clientAudience(userId),
    });
    return device;
  });
}
