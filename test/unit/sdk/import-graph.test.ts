// @vitest-environment node
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The modules the SDK loads when it is imported (static imports that are not `import type`,
 * followed through relative imports), and the ones it loads only on first use (`import()`).
 */
function runtimeGraph(entry: string): { loaded: Set<string>; lazy: Set<string> } {
  const loaded = new Set<string>();
  const lazy = new Set<string>();
  const queue = [entry];
  const toPath = (file: string, spec: string) => (spec.startsWith('.') ? resolve(dirname(file), `${spec}.ts`) : spec);
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (loaded.has(file)) continue;
    loaded.add(file);
    if (!file.startsWith('/')) continue;
    const source = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const match of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+['"]([^'"]+)['"]/gm))
      queue.push(toPath(file, match[1]));
    for (const match of source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g))
      lazy.add(relative(root, toPath(file, match[1])));
  }
  return { loaded: new Set([...loaded].map((f) => (f.startsWith('/') ? relative(root, f) : f))), lazy };
}

describe('game SDK stays a client of the platform', () => {
  it('importing it loads nothing of src/store, lit or comlink; the gateway sockets, the call media and the consent dialog load on first use', () => {
    const { loaded, lazy } = runtimeGraph(resolve(root, 'src/sdk/index.ts'));
    expect(
      [...loaded].filter(
        (f) => /^src\/store\//.test(f) || /^(lit|comlink)(\/|$)/.test(f) || f.startsWith('src/components/'),
      ),
    ).toEqual([]);
    // Outside its own files: pure constants and functions of the platform, the gateway wires, and
    // the platform's one gateway client loop (no browser global: socket and timers are given).
    expect([...loaded].filter((f) => !f.startsWith('src/sdk/')).sort()).toEqual([
      'src/gateway/client.ts',
      'src/gateway/protocol.ts',
      'src/gateway/voice-protocol.ts',
      'src/media/voice-activity.ts',
      'src/platform/core/dates.ts',
      'src/platform/core/limits.ts',
      'src/platform/core/secrets.ts',
      'src/platform/voice/rules.ts',
    ]);
    expect([...lazy].sort()).toEqual([
      'src/components/consent-dialog.ts',
      'src/media/call-media.ts',
      'src/sockets/gateway-socket.ts',
      'src/sockets/voice-gateway-socket.ts',
    ]);
  });
});
