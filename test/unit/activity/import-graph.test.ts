// @vitest-environment node
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every module the activity SDK's files import, followed through relative imports. */
function importGraph(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.startsWith('/')) continue;
    // Comments hold examples (`import … from 'platformpp-web/activity'`) that are not imports.
    const source = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const match of source.matchAll(
      /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g,
    )) {
      const spec = match[1] ?? match[2] ?? match[3];
      queue.push(spec.startsWith('.') ? resolve(dirname(file), spec.endsWith('.ts') ? spec : `${spec}.ts`) : spec);
    }
  }
  return seen;
}

describe('activity SDK stays small', () => {
  it('imports nothing of src/platform, src/store, lit or comlink (nor any package)', () => {
    const dir = join(root, 'src/activity');
    const entries = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(dir, f));
    const graph = [...importGraph(entries)].map((f) => (f.startsWith('/') ? relative(root, f) : f));
    expect(graph.filter((f) => /^src\/(platform|store)\//.test(f) || /^(lit|comlink)(\/|$)/.test(f))).toEqual([]);
    // Beyond its own files, only the shared wire descriptions (types and constants, leaves of the tree).
    expect(graph.filter((f) => !f.startsWith('src/activity/')).sort()).toEqual([
      'src/rpc/protocol.ts',
      'src/wire/paths.ts',
      'src/wire/random-uuid.ts',
      'src/wire/rich-presence.ts',
    ]);
  });
});
