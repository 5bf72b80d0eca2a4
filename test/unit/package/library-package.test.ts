// @vitest-environment node
/**
 * Issue 2: the package builds as a library: `exports` for the SDK entry points, type
 * declarations, and `sideEffects` set so that an activity importing one function does not pull
 * in the rest. Builds the library the way `npm pack` does (`prepack`), into a directory of its
 * own, then looks at it as a consumer would.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { build, type Rolldown } from 'vite';
import { buildServer } from '../../../scripts/build-server.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  files: string[];
  sideEffects: string[];
  exports: Record<string, { types: string; import: string } | string>;
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
};
/** Inside the project, so that the built files find the project's node_modules as a consumer's would. */
const out = join(root, 'test-results', `library-package-${process.pid}`);
const packageDir = join(out, 'platformpp-web');

/** `sideEffects` globs (`./dist/lib/components*.js`) as a matcher of package-relative paths. */
function declaredWithSideEffects(path: string): boolean {
  return pkg.sideEffects.some((glob) => {
    const pattern = glob
      .replace(/^\.\//, '')
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*/g, '\0')
      .replace(/\*/g, '[^/]*')
      .replace(/\0/g, '.*');
    return new RegExp(`^${pattern}$`).test(path);
  });
}

/**
 * A consumer's bundle of `source`, every dependency left external: its code, the package's
 * files that made it into the bundle, and what it still imports.
 */
async function bundle(source: string): Promise<{ code: string; files: string[]; imports: string[] }> {
  const consumer = join(out, `consumer-${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(consumer, 'node_modules'), { recursive: true });
  symlinkSync(packageDir, join(consumer, 'node_modules', 'platformpp-web'), 'dir');
  // Its own package.json: otherwise the project's, named platformpp-web too, would answer the import.
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(consumer, 'main.js'), source);
  const result = (await build({
    configFile: false,
    root: consumer,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: join(consumer, 'main.js'), formats: ['es'], fileName: 'main' },
      rolldownOptions: { external: Object.keys(pkg.dependencies).map((name) => new RegExp(`^${name}(/|$)`)) },
    },
  })) as Rolldown.RolldownOutput[];
  const chunks = result.flatMap((r) => r.output).filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
  const rendered = chunks.flatMap((c) =>
    Object.entries(c.modules)
      .filter(([, m]) => m.renderedLength > 0)
      .map(([id]) => id),
  );
  return {
    code: chunks.map((c) => c.code).join('\n'),
    files: rendered
      .filter((id) => id.startsWith(packageDir))
      .map((id) => id.slice(packageDir.length + 1).replace(/-[\w-]{8}\.js$/, '-*.js'))
      .sort(),
    imports: [...new Set(chunks.flatMap((c) => [...c.imports, ...c.dynamicImports]))],
  };
}

beforeAll(async () => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(packageDir, { recursive: true });
  copyFileSync(join(root, 'package.json'), join(packageDir, 'package.json'));
  copyFileSync(join(root, 'README.md'), join(packageDir, 'README.md'));
  // npm leaves out what .gitignore names (dist/ among it) unless `files` says otherwise.
  copyFileSync(join(root, '.gitignore'), join(packageDir, '.gitignore'));
  // What `prepack` runs (`npm run build:lib`), with the output moved into the package copy.
  expect(pkg.scripts.prepack).toBe('npm run build:lib && node scripts/build-server.js');
  expect(pkg.scripts['build:lib']).toBe('vite build --mode lib && tsc -p scripts/tsconfig.types.json');
  await build({
    root,
    configFile: join(root, 'vite.config.ts'),
    mode: 'lib',
    logLevel: 'warn',
    build: { outDir: join(packageDir, 'dist/lib'), emptyOutDir: true },
  });
  execFileSync(
    join(root, 'node_modules/.bin/tsc'),
    ['-p', join(root, 'scripts/tsconfig.types.json'), '--outDir', join(packageDir, 'dist/types')],
    { cwd: root },
  );
  // The server (CONTRACT §7): the built Worker, its launcher and the CLI.
  await buildServer({ quiet: true, outDir: join(packageDir, 'dist/server') });
  for (const file of ['server/start.js', 'server/start.d.ts', 'bin/platformpp-web.js']) {
    mkdirSync(dirname(join(packageDir, file)), { recursive: true });
    copyFileSync(join(root, file), join(packageDir, file));
  }
}, 120_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the library package (issue 2: exports, type declarations, sideEffects)', () => {
  it('every exports target is built, and npm pack ships every one of them and nothing but dist/, README and package.json', () => {
    const targets = Object.values(pkg.exports)
      .flatMap((entry) => (typeof entry === 'string' ? [entry] : [entry.types, entry.import]))
      .map((t) => t.replace(/^\.\//, ''));
    expect(targets.length).toBe(11);
    for (const target of targets) expect(existsSync(join(packageDir, target)), target).toBe(true);
    const stdout = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: packageDir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [packed] = JSON.parse(stdout) as { files: { path: string }[] }[];
    const files = packed.files.map((f) => f.path);
    for (const target of targets) expect(files, target).toContain(target);
    // The shared worker the elements start is a built asset of its own.
    expect(files.some((f) => /^dist\/lib\/assets\/hub-worker-.*\.js$/.test(f))).toBe(true);
    expect(
      files.filter(
        (f) =>
          !/^(dist\/(lib|types|sandbox|vite)\/|dist\/server\/worker\.js$|server\/start\.(js|d\.ts)$|bin\/platformpp-web\.js$|README\.md$|package\.json$|LICENSE)/.test(
            f,
          ),
      ),
    ).toEqual([]);
    expect(files).toContain('dist/server/worker.js');
  });

  it('the library finds its shared worker next to itself, not at a path of the site that built it', () => {
    const libDir = join(packageDir, 'dist/lib');
    const code = readdirSync(libDir)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(libDir, f), 'utf8'))
      .join('\n');
    expect(code).toMatch(/new URL\("assets\/hub-worker-[\w-]+\.js", import\.meta\.url\)/);
    expect(code).not.toMatch(/["']\/assets\/hub-worker/);
  });

  it('the sandbox of platformpp-web/vite ships self-contained: host.js, sw.js and the shared worker import no package', () => {
    const sandbox = join(packageDir, 'dist/sandbox');
    const worker = readdirSync(join(sandbox, 'assets')).find((f) => /^hub-worker-.*\.js$/.test(f));
    expect(worker).toBeDefined();
    for (const file of ['host.js', 'sw.js', `assets/${worker}`]) {
      const code = readFileSync(join(sandbox, file), 'utf8');
      expect(code, file).not.toMatch(/^\s*import\s[^;]*?from\s*["'][^./]/m);
      expect(code, file).not.toMatch(/\bimport\s*\(\s*["'][^./]/);
    }
    expect(readFileSync(join(sandbox, 'host.js'), 'utf8')).toContain(`new URL("assets/${worker}", import.meta.url)`);
  });

  it("the sandbox's sw.js precaches its routes' script, which it runs from there, and imports no script (a start is handed every imported one)", () => {
    const sandbox = join(packageDir, 'dist/sandbox');
    const routes = readdirSync(sandbox).filter((f) => /^sw-routes-[0-9a-f]+\.js$/.test(f));
    expect(routes).toHaveLength(1);
    const code = readFileSync(join(sandbox, 'sw.js'), 'utf8');
    // The only entry of its precache manifest (the package's pages are its consumer's).
    expect(code).toContain(`[{url:\`${routes[0]}\`,revision:null}]`);
    expect(code).not.toContain('importScripts(');
  });

  it('platformpp-web/vite is an ES module for Node that imports only node: builtins and vite', () => {
    const code = readFileSync(join(packageDir, 'dist/vite/index.js'), 'utf8');
    const imports = [...code.matchAll(/^import\s[^;]*?from\s*["']([^"']+)["']/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((name) => !name.startsWith('node:') && name !== 'vite')).toEqual([]);
    expect(code).toMatch(/export\s*\{[^}]*\bplatformpp\b/);
  });

  it('an activity importing one function of platformpp-web/activity pulls in no dependency (lit, idb, hono, comlink, valibot) and no element', async () => {
    const { code, files, imports } = await bundle(
      "import { ActivitySdk } from 'platformpp-web/activity';\nglobalThis.sdk = new ActivitySdk('1');\n",
    );
    expect(files).toEqual(['dist/lib/activity.js', 'dist/lib/protocol-*.js', 'dist/lib/random-uuid-*.js']);
    expect(imports).toEqual([]);
    expect(code).not.toMatch(/customElements|indexedDB|SharedWorker/);
  });

  it('a page importing one constant of the main entry pulls in neither the elements nor the game SDK chunk', async () => {
    const { code, files, imports } = await bundle(
      "import { snowflakeTime } from 'platformpp-web';\nglobalThis.t = snowflakeTime('175928847299117063');\n",
    );
    // One file: the main entry, or the chunk of core modules it shares with the elements (ids,
    // intents, the sandbox client) where the constant lives; never the elements' entry, the game
    // SDK's or the media chunk.
    expect(files).toHaveLength(1);
    expect(files.filter((file) => /components|sdk|call-media|consent-dialog|gateway-socket/.test(file))).toEqual([]);
    expect(imports).toEqual([]);
    expect(code).not.toMatch(/customElements|SharedWorker/);
  });

  it('importing platformpp-web/components for its side effect keeps every element definition', async () => {
    const { code, files, imports } = await bundle("import 'platformpp-web/components';\n");
    expect(files).toEqual(expect.arrayContaining(['dist/lib/components.js', 'dist/lib/consent-dialog-*.js']));
    for (const tag of [
      'pp-platform',
      'pp-activity-frame',
      'pp-consent-dialog',
      'pp-share-dialog',
      'pp-image-upload-dialog',
      'pp-activity-invite-dialog',
    ])
      expect(code, tag).toContain(`"${tag}"`);
    expect(imports).toContain('lit');
  });

  it('no built file declared free of side effects defines an element when it loads (sideEffects covers every one that does)', async () => {
    const libDir = join(packageDir, 'dist/lib');
    const free = readdirSync(libDir).filter((f) => f.endsWith('.js') && !declaredWithSideEffects(`dist/lib/${f}`));
    expect(free).toContain('activity.js');
    expect(free.some((f) => f.startsWith('consent-dialog-'))).toBe(true);
    const define = vi.fn();
    vi.stubGlobal('customElements', { define, get: () => undefined });
    try {
      for (const file of free) await import(/* @vite-ignore */ pathToFileURL(join(libDir, file)).href);
      expect(define).not.toHaveBeenCalled();
      // The check can see a definition: the entry declared with side effects makes six.
      await import(/* @vite-ignore */ pathToFileURL(join(libDir, 'components.js')).href);
      expect(define.mock.calls.map((call) => call[0]).sort()).toEqual([
        'pp-activity-frame',
        'pp-activity-invite-dialog',
        'pp-consent-dialog',
        'pp-image-upload-dialog',
        'pp-platform',
        'pp-share-dialog',
      ]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
