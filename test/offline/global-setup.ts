/**
 * Builds the site once for every offline test file, into its own directory so that a `dist/`
 * the developer built (with `dist/lib`, `dist/types`) is left alone.
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the site built for the offline tests. */
    offlineSiteDir: string;
  }
}

/** Where the offline tests' build goes (ignored by git, like every test output). */
const OUT_DIR = 'test-results/offline-dist';
let builtDir: string | undefined;

/** Runs `vite build` with the project's config into `test-results/offline-dist`. */
export async function setup(project: TestProject): Promise<void> {
  const root = project.config.root;
  const outDir = (builtDir = resolve(root, OUT_DIR));
  await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  project.provide('offlineSiteDir', outDir);
}

/** Removes the build again. */
export function teardown(): void {
  // The directory is only for this run; a later run builds it afresh.
  if (builtDir) rmSync(builtDir, { recursive: true, force: true });
}
