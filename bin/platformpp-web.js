#!/usr/bin/env node
// @ts-check
/**
 * `platformpp-web serve [--port 8787] [--host 127.0.0.1] [--persist DIR] [--rate-limits] [--heartbeat-interval MS]`: the platform as a
 * server on this machine (CONTRACT §7). Prints its URL; Ctrl-C stops it.
 */
import { parseArgs } from 'node:util';
import { MissingEngineError, startServer } from '../server/start.js';

const USAGE = `Usage: platformpp-web serve [--port 8787] [--host 127.0.0.1] [--persist DIR] [--rate-limits]
                            [--heartbeat-interval MS]

  --port         TCP port to listen on (default 8787; 0 picks a free one)
  --host         address to listen on (default 127.0.0.1)
  --persist      keep the data in DIR across restarts (default: in memory)
  --rate-limits  every sandbox starts with the platform's HTTP rate limits on (default: off;
                 PUT /sandbox/rate-limits changes one sandbox)
  --heartbeat-interval
                 the gateway's Hello heartbeat_interval in milliseconds, 1000 to 600000
                 (default: the platform's 41250); shorter makes clients notice a zombie
                 connection (a sandbox fault) in seconds

The control API (/sandbox/..., the consent decision) is open; set PLATFORMPP_CONTROL_SECRET to require that secret
in the X-Sandbox-Secret header, as a deployment does. PLATFORMPP_WORKER serves another build of
the Worker than the package's.`;

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      persist: { type: 'string' },
      'rate-limits': { type: 'boolean', default: false },
      'heartbeat-interval': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals[0] !== 'serve' || positionals.length > 1) {
    console.log(USAGE);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`platformpp-web: --port must be a port number (0-65535), not ${values.port}.`);
    process.exitCode = 2;
    return;
  }
  const heartbeat = values['heartbeat-interval'];
  const heartbeatIntervalMs = heartbeat === undefined ? undefined : Number(heartbeat);
  if (
    heartbeatIntervalMs !== undefined &&
    !(Number.isInteger(heartbeatIntervalMs) && heartbeatIntervalMs >= 1000 && heartbeatIntervalMs <= 600_000)
  ) {
    console.error(`platformpp-web: --heartbeat-interval must be milliseconds from 1000 to 600000, not ${heartbeat}.`);
    process.exitCode = 2;
    return;
  }
  let server;
  try {
    server = await startServer({
      port,
      host: values.host,
      persist: values.persist,
      rateLimits: values['rate-limits'],
      heartbeatIntervalMs,
      controlSecret: process.env.PLATFORMPP_CONTROL_SECRET || undefined,
      workerPath: process.env.PLATFORMPP_WORKER || undefined,
    });
  } catch (error) {
    console.error(error instanceof MissingEngineError ? error.message : `platformpp-web: ${String(error)}`);
    process.exitCode = 1;
    return;
  }
  console.log(`platformpp server: ${server.url}`);
  console.log(`  HTTP API   ${server.url}/api/v10   (sandbox control: ${server.url}/sandbox/)`);
  console.log(`  gateway    ${server.url.replace(/^http/, 'ws')}/gateway`);
  console.log(values.persist ? `  data kept in ${values.persist}` : '  data in memory (use --persist DIR to keep it)');
  if (values['rate-limits']) console.log('  rate limits on in every new sandbox');
  if (heartbeatIntervalMs) console.log(`  gateway heartbeat every ${heartbeatIntervalMs} ms`);
  console.log('  Press Ctrl-C to stop.');
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
