/**
 * A new user's activity project, made the way a new user would: the package packed with
 * `npm pack` and installed with `npm install --offline <tarball>` into a fresh Vite project in
 * the system's temporary directory, whose `vite.config.js` adds `platformpp()`. Its other
 * dependencies (vite, the public SDK, and the package's own dependencies) are `file:` links to
 * this repository's copies, so npm needs no registry. (Not under `test-results/`: Vite's file
 * watcher ignores that directory, and the hot reload under test would never come.)
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'vite';
import { buildServer } from '../../scripts/build-server.js';

const run = promisify(execFile);

/**
 * Packs the package as `npm pack` does after its `prepack` (the library build, which writes
 * `dist/lib`, `dist/sandbox` and `dist/vite`; with `server`, the platform server too), from a
 * copy of its package files in `workDir`, so the repository's own `dist/` is left alone. Type declarations are left out: nothing here
 * reads them (the library package test checks them). Returns the tarball's path.
 */
export async function packPackage(root: string, workDir: string, options: { server?: boolean } = {}): Promise<string> {
  const staging = join(workDir, 'platformpp-web');
  mkdirSync(staging, { recursive: true });
  for (const file of ['package.json', 'README.md', '.gitignore']) copyFileSync(join(root, file), join(staging, file));
  await build({
    root,
    configFile: join(root, 'vite.config.ts'),
    mode: 'lib',
    logLevel: 'warn',
    build: { outDir: join(staging, 'dist/lib'), emptyOutDir: true },
  });
  if (options.server) {
    // The platform server (CONTRACT §7): the built Worker and its launcher, as `prepack` ships them.
    await buildServer({ quiet: true, outDir: join(staging, 'dist/server') });
    for (const file of ['server/start.js', 'server/start.d.ts', 'bin/platformpp-web.js']) {
      mkdirSync(dirname(join(staging, file)), { recursive: true });
      copyFileSync(join(root, file), join(staging, file));
    }
  }
  await run('npm', ['pack', '--ignore-scripts', '--pack-destination', workDir], { cwd: staging });
  const tarball = readdirSync(workDir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack wrote no tarball');
  return join(workDir, tarball);
}

/** Writes `files` (path → content) under `dir`. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** The project's own devDependencies: what an activity built with the public SDK has. */
const PROJECT_DEPENDENCIES = ['vite', '@discord/embedded-app-sdk'];

/**
 * Creates the project `dir` with `files`, and installs the tarball into it offline; `extra`
 * dependencies (the optional `miniflare`) are linked as the others are.
 */
export async function createProject(
  root: string,
  dir: string,
  tarball: string,
  files: Record<string, string>,
  extra: string[] = [],
) {
  rmSync(dir, { recursive: true, force: true });
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const links = Object.fromEntries(
    [...PROJECT_DEPENDENCIES, ...extra, ...Object.keys(pkg.dependencies)].map((name) => [
      name,
      `file:${join(root, 'node_modules', name)}`,
    ]),
  );
  writeFiles(dir, {
    'package.json': JSON.stringify(
      { name: 'my-activity', private: true, type: 'module', dependencies: links },
      null,
      2,
    ),
    ...files,
  });
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: dir });
}

/** A port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A `vite` command of the project running, and everything it printed. */
export interface ViteProcess {
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Runs the project's `vite` CLI (`vite` or `vite preview`) on 127.0.0.1:`port` and resolves once
 * it printed the sandbox's URL (the plugin prints it after the server's own).
 */
export function startVite(dir: string, args: string[], port: number): Promise<ViteProcess> {
  const child = spawn(
    process.execPath,
    [
      join(dir, 'node_modules/vite/bin/vite.js'),
      ...args,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--strictPort',
    ],
    { cwd: dir, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`vite ${args.join(' ')} did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('platformpp API for your backend')) {
        clearTimeout(timer);
        resolve({ child, output: () => output, stop });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`vite ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}
