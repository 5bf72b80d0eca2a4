/**
 * Snowflake ids (CONTRACT §2): `(id >> 22) + PLATFORM_EPOCH` is the creation time in ms,
 * worker bits 17-21, process bits 12-16, increment bits 0-11. Serialized as decimal strings.
 */
import type { Clock } from './clock';

/** The platform epoch: the first millisecond of 2015, in epoch ms. */
export const PLATFORM_EPOCH = 1_420_070_400_000;

/** Worker ids by the context that hands out ids, so two contexts never collide. */
export const SNOWFLAKE_WORKERS = { serviceWorker: 1, hub: 2, page: 3, server: 4, test: 31 } as const;

const INCREMENT_MAX = 0xfff;

/**
 * The creation time of a snowflake, in epoch milliseconds.
 * @example snowflakeTime('175928847299117063') // 1462015105796
 */
export function snowflakeTime(id: string): number {
  return Number(BigInt(id) >> 22n) + PLATFORM_EPOCH;
}

/**
 * The smallest snowflake created at `ms`: every id created at or after `ms` is not smaller.
 * Used for time-bounded range queries.
 */
export function snowflakeAt(ms: number): string {
  return (BigInt(Math.max(0, ms - PLATFORM_EPOCH)) << 22n).toString();
}

/** Snowflakes with one length, so that string order is numeric order (for store keys). */
export const SNOWFLAKE_KEY_LENGTH = 20;

/**
 * A snowflake padded with zeros to {@link SNOWFLAKE_KEY_LENGTH} digits: string order of keys is
 * then time order.
 * @example snowflakeKey('41771983429993937') // '00041771983429993937'
 */
export function snowflakeKey(id: string): string {
  return id.padStart(SNOWFLAKE_KEY_LENGTH, '0');
}

/** True when `value` is a decimal string that fits a snowflake. */
export function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,20}$/.test(value) && BigInt(value) < 1n << 64n;
}

/**
 * How far ahead of its ids a context reserves snowflake time in the store. A context that starts
 * begins above every reservation made before it, so it can never hand out an id an earlier
 * context could have made; a context renews its reservation once half of it is left. Larger
 * means fewer store writes, smaller means a context that starts while another runs begins
 * closer to the clock (its first ids stand at most this far ahead until the clock catches up).
 */
export const SNOWFLAKE_LEASE_MS = 2_000;

/** A reservation of snowflake time held in the store (see {@link SNOWFLAKE_LEASE_MS}). */
export interface SnowflakeLease {
  /** The last millisecond (epoch ms) the committed reservation covers. */
  end: number;
  /**
   * Extends the reservation to cover `throughMs`; resolves with the committed end (which may be
   * later: another context may have reserved further). Must create its transaction before it
   * first yields, so that a context starting after the call reads the new reservation.
   */
  renew(throughMs: number): Promise<number>;
}

/** What a generator needs: which context it is, which incarnation, and the clock. */
export interface SnowflakeGeneratorOptions {
  /** 0-31: the kind of context ({@link SNOWFLAKE_WORKERS}). */
  workerId: number;
  /** 0-31: allocated per start of the context, so two of one kind running at once differ. */
  processId: number;
  clock: Clock;
  /** No id is created before this instant (the allocation's start time, in epoch ms). */
  floor?: number;
  /** The context's reservation in the store; without one (a test's private generator) none is kept. */
  lease?: SnowflakeLease;
}

/**
 * Hands out unique, strictly increasing snowflakes. Time comes from the platform clock; when
 * the clock stands still or moves back, ids keep increasing (the increment, then the next ms).
 * With a lease, the reservation is renewed ahead of the ids, so that a context started later
 * (after a restart, with the clock set back) begins above every id this one made.
 * @example
 * const ids = new SnowflakeGenerator({ workerId: 1, processId: 0, clock });
 * ids.next(); // '1198409612312543232'
 */
export class SnowflakeGenerator {
  #lastMs: number;
  #increment = -1;
  readonly #prefix: bigint;
  #leaseEnd: number;
  /** The furthest reservation asked for, committed or not. */
  #requested: number;

  constructor(private readonly options: SnowflakeGeneratorOptions) {
    const { workerId, processId } = options;
    if (!(workerId >= 0 && workerId < 32 && processId >= 0 && processId < 32)) {
      throw new RangeError(`snowflake worker and process ids are 0-31 (got ${workerId}, ${processId})`);
    }
    this.#prefix = (BigInt(workerId) << 17n) | (BigInt(processId) << 12n);
    // The first id is at the floor (increment 0 after the -1 above) unless the clock is past
    // it; never before the epoch, where the time field would go negative.
    this.#lastMs = Math.max(options.floor ?? 0, PLATFORM_EPOCH);
    this.#leaseEnd = options.lease?.end ?? Infinity;
    this.#requested = this.#leaseEnd;
  }

  /** The next id. */
  next(): string {
    const now = this.options.clock.now();
    let ms = Math.max(now, this.#lastMs);
    if (ms === this.#lastMs) {
      this.#increment += 1;
      if (this.#increment > INCREMENT_MAX) {
        ms += 1;
        this.#increment = 0;
      }
    } else {
      this.#increment = 0;
    }
    this.#lastMs = ms;
    if (ms + SNOWFLAKE_LEASE_MS / 2 > this.#requested) this.#renew(ms + SNOWFLAKE_LEASE_MS);
    return ((BigInt(ms - PLATFORM_EPOCH) << 22n) | this.#prefix | BigInt(this.#increment)).toString();
  }

  /** The last millisecond the committed reservation covers (Infinity without a lease). */
  get leaseEnd(): number {
    return this.#leaseEnd;
  }

  #renew(throughMs: number): void {
    const lease = this.options.lease;
    if (!lease) return;
    this.#requested = throughMs;
    // Not awaited: ids are handed out synchronously inside other transactions. The renewal's
    // transaction is created now, before this id is returned, so a context that starts later
    // waits for it (IndexedDB runs overlapping read-write transactions in creation order): every
    // id is covered by a reservation asked for no later than the id itself.
    lease.renew(throughMs).then(
      (end) => {
        this.#leaseEnd = Math.max(this.#leaseEnd, end);
      },
      // The database closed under us: the next id asks again.
      () => {
        this.#requested = Math.min(this.#requested, this.#leaseEnd);
      },
    );
  }
}
