// @vitest-environment node
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every TypeScript file under `dir`, relative to the repository. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (full.endsWith('.ts') && !full.endsWith('.d.ts')) out.push(relative(root, full));
    }
  };
  walk(join(root, dir));
  return out;
}

/** Each file's relative imports of any kind (type and side-effect imports too: each is a door between rooms). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of [...filesUnder('src'), ...filesUnder('sw'), ...filesUnder('server'), ...filesUnder('demo')]) {
    const source = readFileSync(join(root, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const targets: string[] = [];
    // `import './x'` (for its side effects, such as defining an element) is an import as well.
    for (const match of source.matchAll(/^\s*(?:import|export)\s(?:[^;]*?from\s+)?['"](\.[^'"]+)['"]/gm)) {
      const base = resolve(dirname(join(root, file)), match[1].replace(/\.js$/, ''));
      const target = existsSync(`${base}.ts`) ? `${base}.ts` : join(base, 'index.ts');
      if (existsSync(target)) targets.push(relative(root, target));
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components with more than one file: the import circles. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

const graph = importGraph();
const importsOf = (folder: string) =>
  [...graph].filter(([file]) => file.startsWith(folder)).flatMap(([file, targets]) => targets.map((t) => [file, t]));

describe('the floor plan: each room imports only from the rooms below it', () => {
  it('src/wire is a leaf: its wire descriptions import nothing', () => {
    expect(importsOf('src/wire/')).toEqual([]);
  });

  it('the store is the bottom floor: src/store imports only the store and src/wire (nothing of src/platform)', () => {
    const up = importsOf('src/store/').filter(([, target]) => !/^src\/(store|wire)\//.test(target));
    expect(up).toEqual([]);
  });

  it('the platform imports only the platform, the store and src/wire: no shell, client or SDK above it', () => {
    const up = importsOf('src/platform/').filter(([, target]) => !/^src\/(platform|store|wire)\//.test(target));
    expect(up).toEqual([]);
  });

  it('the gateway sessions import no page-side code: not the sockets, the hub, the components or the SDKs', () => {
    const up = importsOf('src/gateway/').filter(([, target]) =>
      /^src\/(sockets|hub|components|sdk|activity)\//.test(target),
    );
    expect(up).toEqual([]);
  });

  it('no import circle anywhere in the runtime code', () => {
    expect(circles(graph)).toEqual([]);
  });
});
