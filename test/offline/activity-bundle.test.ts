/**
 * The activity SDK as it ships (`dist/lib/activity.js` and the chunks it imports), not as its
 * sources read: built with the project's library configuration into a directory of its own,
 * then walked import by import. It must carry nothing of lit, idb, hono, valibot, comlink or
 * the platform's store and core: the source maps name every file whose code is in the output.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Packages the activity SDK must neither bundle nor import. */
const FORBIDDEN_PACKAGES = /^(lit|@lit|lit-html|lit-element|idb|hono|valibot|comlink|workbox-[\w-]+)(\/|$)/;

interface BundleFile {
  file: string;
  /** Bare specifiers it imports (packages left external). */
  packages: string[];
  /** The source files its code came from, relative to the project root. */
  sources: string[];
}

/** `entry` and every chunk it imports, statically or dynamically. */
async function walk(dir: string, entry: string): Promise<BundleFile[]> {
  const files: BundleFile[] = [];
  const queue = [resolve(dir, entry)];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = await readFile(file, 'utf8');
    const specifiers = [
      ...code.matchAll(
        /(?:\bimport|\bexport)\s*(?:[^'"();]*?\bfrom\s*)?['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
      ),
    ].map((m) => m[1] ?? m[2]);
    for (const spec of specifiers.filter((s) => s.startsWith('.'))) queue.push(resolve(dirname(file), spec));
    const map = JSON.parse(await readFile(`${file}.map`, 'utf8')) as { sources: string[]; sourceRoot?: string };
    const sources = map.sources.map((source) =>
      relative(root, resolve(dirname(file), map.sourceRoot ?? '', source)).replaceAll('\\', '/'),
    );
    files.push({ file: relative(dir, file), packages: specifiers.filter((s) => !s.startsWith('.')), sources });
  }
  return files;
}

describe('the built activity SDK (dist/lib/activity.js) is small and self-contained', () => {
  let outDir: string;
  let files: BundleFile[];

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'platformpp-lib-'));
    await build({
      root,
      mode: 'lib',
      configFile: join(root, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
    files = await walk(outDir, 'activity.js');
  });

  afterAll(async () => {
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('imports no package at all: no lit, idb, hono, valibot, comlink or workbox, bundled or external', () => {
    expect(files.map((f) => f.file)).toContain('activity.js');
    expect(files.flatMap((f) => f.packages)).toEqual([]);
    expect(files.flatMap((f) => f.sources).filter((s) => s.includes('node_modules/'))).toEqual([]);
    expect(files.flatMap((f) => f.sources).filter((s) => FORBIDDEN_PACKAGES.test(s))).toEqual([]);
  });

  it("carries only the SDK's own code and the shared wire description: nothing of the platform core, the store, the gateway or the components", () => {
    const sources = [...new Set(files.flatMap((f) => f.sources))].sort();
    // The shared wire descriptions: the RPC wire, and the leaves of src/wire (the platform's paths).
    expect(
      sources.filter(
        (s) => !s.startsWith('src/activity/') && s !== 'src/rpc/protocol.ts' && !s.startsWith('src/wire/'),
      ),
    ).toEqual([]);
    expect(sources).toContain('src/activity/client.ts');
  });
});
