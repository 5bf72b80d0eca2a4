/**
 * Where the demo keeps its record of the seeded world. In this browser's own database
 * (`world-store.ts`) when the platform runs in this browser; in the sandbox itself, as a fixture
 * set, when the page joined a platform server (`?server=`, CONTRACT §7): every browser on every
 * machine that joins the server then finds the same world, instead of seeding one each.
 */
import type { SandboxClient } from '../../src/components/sandbox-client';
import { SandboxError } from '../../src/components/sandbox-client';
import { WORLD_VERSION, type DemoWorld } from './world';
import { loadWorld, saveWorld } from './world-store';

/** The fixture set the demo's world is recorded in on a server. */
export const WORLD_FIXTURE_SET = 'platformpp-demo-world';

/** The record of the world. */
export interface WorldRecords {
  /** The recorded world, or null when there is none (or it is from another version). */
  load(): Promise<DemoWorld | null>;
  /** Records a change of the world (a renewed token). */
  save(world: DemoWorld): Promise<void>;
  /**
   * Records a world just seeded, unless another browser recorded one meanwhile: resolves with the
   * world to use (that other one, then).
   */
  first(world: DemoWorld): Promise<DemoWorld>;
}

/** The record in this browser's database. */
export const browserWorldRecords: WorldRecords = {
  load: loadWorld,
  save: saveWorld,
  first: async (world) => {
    await saveWorld(world);
    return world;
  },
};

/** The record in the sandbox (a fixture set), shared by every browser that joins it. */
export function sandboxWorldRecords(sandbox: SandboxClient): WorldRecords {
  const load = async () => {
    const world = (await sandbox.getFixtureSet(WORLD_FIXTURE_SET))?.value as DemoWorld | undefined;
    return world?.version === WORLD_VERSION ? world : null;
  };
  return {
    load,
    save: async (world) => void (await sandbox.putFixtureSet(WORLD_FIXTURE_SET, world)),
    first: async (world) => {
      try {
        await sandbox.putFixtureSet(WORLD_FIXTURE_SET, world, { createOnly: true });
        return world;
      } catch (error) {
        // Another machine seeded at the same time and recorded first: everyone uses that one.
        if (error instanceof SandboxError && error.status === 412) return (await load()) ?? world;
        throw error;
      }
    },
  };
}

/**
 * The record for a page: the sandbox's when it joined a server, else this browser's.
 * @example const records = worldRecordsFor(platform.joinedServer !== null, platform.sandbox);
 */
export function worldRecordsFor(onServer: boolean, sandbox: SandboxClient): WorldRecords {
  return onServer ? sandboxWorldRecords(sandbox) : browserWorldRecords;
}
