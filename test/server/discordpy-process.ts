/**
 * The discord.py bot (`bots/discordpy-bot.py`) as a child process of a test: started with
 * Debian's `/usr/bin/python3` (the one `python3-discord` is installed for), spoken to over JSON
 * lines on stdin and stdout. Its stderr (discord.py's own log) is kept for failure messages.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The Python that Debian's `python3-discord` is installed for. */
export const DISCORDPY_PYTHON = '/usr/bin/python3';

/** The one command that installs discord.py where this test looks for it. */
export const DISCORDPY_INSTALL = 'sudo apt-get install -y python3-discord';

const BOT_SCRIPT = fileURLToPath(new URL('./bots/discordpy-bot.py', import.meta.url));

/** discord.py's version, or an error naming the command that installs it: the test never skips. */
export function discordpyVersion(): string {
  const probe = spawnSync(DISCORDPY_PYTHON, ['-c', 'import discord; print(discord.__version__)'], {
    encoding: 'utf8',
    cwd: '/',
  });
  if (probe.status !== 0) {
    throw new Error(
      `discord.py is not installed for ${DISCORDPY_PYTHON}. Install it with:\n\n    ${DISCORDPY_INSTALL}\n`,
    );
  }
  return probe.stdout.trim();
}

/** A line the bot wrote on its own (not the answer to a command). */
export type BotEvent = { event: string } & Record<string, any>;

/** A running discord.py bot. */
export class DiscordpyBot {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly events: BotEvent[] = [];
  private readonly eventWaiters: { match: (e: BotEvent) => boolean; resolve: (e: BotEvent) => void }[] = [];
  private readonly answers = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private stderr = '';
  private exited: string | undefined;

  /**
   * Starts the bot against the REST base `api` and the gateway `gateway` with `botToken`;
   * `script` is another bot of `bots/` speaking the same JSON lines; `env` adds to its environment.
   */
  constructor(api: string, gateway: string, botToken: string, script = BOT_SCRIPT, env: Record<string, string> = {}) {
    this.child = spawn(DISCORDPY_PYTHON, [script], {
      // Not the repository: a `discord` folder in the working directory would shadow the package.
      cwd: '/',
      env: {
        PATH: process.env.PATH,
        PLATFORMPP_API: api,
        PLATFORMPP_GATEWAY: gateway,
        PLATFORMPP_BOT_TOKEN: botToken,
        PYTHONUNBUFFERED: '1',
        ...env,
      },
    });
    this.child.stderr.on('data', (chunk) => {
      this.stderr += chunk;
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => this.onLine(line));
    this.child.on('close', (code, signal) => {
      this.exited = `discord.py bot exited (${signal ?? code}); its stderr:\n${this.stderr.slice(-4000)}`;
      const failure = new Error(this.exited);
      for (const { reject } of this.answers.values()) reject(failure);
      this.answers.clear();
      for (const waiter of this.eventWaiters.splice(0)) waiter.resolve({ event: 'exit', error: this.exited });
    });
  }

  private onLine(line: string): void {
    let parsed: any;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.stderr += `(stdout) ${line}\n`;
      return;
    }
    if (typeof parsed.reply_to === 'number') {
      const answer = this.answers.get(parsed.reply_to);
      this.answers.delete(parsed.reply_to);
      if (parsed.ok) answer?.resolve(parsed.result);
      else answer?.reject(new Error(`discord.py: ${parsed.error}\n${this.stderr.slice(-2000)}`));
      return;
    }
    const waiter = this.eventWaiters.findIndex((w) => w.match(parsed));
    if (waiter >= 0) this.eventWaiters.splice(waiter, 1)[0]!.resolve(parsed);
    else this.events.push(parsed);
  }

  /**
   * The next event named `name` that `match` accepts (one already written counts). Fails with
   * the bot's stderr when the process ends first or after `timeoutMs` (discord.py retries a
   * closed gateway forever: the log says why).
   */
  async event(name: string, match: (e: BotEvent) => boolean = () => true, timeoutMs = 30_000): Promise<BotEvent> {
    const accepts = (e: BotEvent) => e.event === name && match(e);
    const queued = this.events.findIndex(accepts);
    if (queued >= 0) return this.events.splice(queued, 1)[0]!;
    if (this.exited) throw new Error(this.exited);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const found = await new Promise<BotEvent>((resolve) => {
      const waiter = { match: accepts, resolve };
      this.eventWaiters.push(waiter);
      timer = setTimeout(() => {
        this.eventWaiters.splice(this.eventWaiters.indexOf(waiter), 1);
        resolve({
          event: 'exit',
          error: `no ${name} within ${timeoutMs} ms; the bot's stderr:\n${this.stderr.slice(-4000)}`,
        });
      }, timeoutMs);
    });
    clearTimeout(timer);
    if (found.event === 'exit') throw new Error(found.error);
    return found;
  }

  /** Runs one command in the bot and answers its result. */
  command(op: string, args: Record<string, unknown> = {}): Promise<any> {
    if (this.exited) return Promise.reject(new Error(this.exited));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.answers.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ id, op, ...args })}\n`);
    });
  }

  /** Closes the client and waits for the process to end (killing it if it lingers). */
  async close(): Promise<void> {
    if (this.exited) return;
    const ended = new Promise<void>((resolve) => this.child.once('close', () => resolve()));
    this.command('close').catch(() => undefined);
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await ended;
    clearTimeout(timer);
  }
}
