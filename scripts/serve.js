#!/usr/bin/env node
// @ts-check
/**
 * `npm start`: serves the already built `dist/` on 127.0.0.1 (port 4173, or the next free one)
 * with Vite's preview server, which sends the same headers as in development.
 */
import { preview } from 'vite';

const server = await preview({
  preview: { host: '127.0.0.1', port: Number(process.env.PORT ?? 4173), strictPort: false, open: false },
  logLevel: 'warn',
});
const url =
  server.resolvedUrls?.local[0] ??
  `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.httpServer.address()).port}/`;

console.log('');
console.log(`  platformpp is running at ${url}`);
console.log('  It works offline once the page has loaded. Press Ctrl+C to stop.');
console.log('');

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => server.close().then(() => process.exit(0)));
}
