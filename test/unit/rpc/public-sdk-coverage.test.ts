// @vitest-environment node
/**
 * The host answers everything the installed public embedded-app SDK can send: its command list
 * and event list are read from the package itself, so a new SDK version's command fails here
 * before a user meets it as an unknown command.
 */
import { DiscordSDK, Events } from '@discord/embedded-app-sdk';
import { describe, expect, it } from 'vitest';
import { createCommands } from '../../../src/activity/commands';
import { COMMANDS, SUBSCRIBABLE_EVENTS } from '../../../src/rpc/protocol';
import { COMMAND_ARGS, SUBSCRIBE_ARGS } from '../../../src/rpc/schemas';
import { COMMAND_HANDLERS } from '../../../src/rpc/commands';

/** Each key of the SDK's `commands` and the `cmd` it sends, read by letting the SDK send it. */
function sdkCommands(): Map<string, string> {
  const sdk = new DiscordSDK('1');
  const sent: string[] = [];
  // Outside a browser the SDK has no host window: give it one that records what is posted.
  (sdk as unknown as { source: unknown }).source = {
    postMessage: (message: [number, { cmd: string }]) => sent.push(message[1].cmd),
  };
  const found = new Map<string, string>();
  for (const [key, send] of Object.entries(sdk.commands as Record<string, (args?: unknown) => Promise<unknown>>)) {
    const before = sent.length;
    send({}).catch(() => undefined);
    found.set(key, sent[before]);
  }
  return found;
}

describe('the host keeps up with the installed @discord/embedded-app-sdk', () => {
  it('answers every command the public SDK can send (each key of sdk.commands)', () => {
    const commands = sdkCommands();
    expect(commands.size).toBeGreaterThan(0);
    const missing = [...commands].filter(([, cmd]) => !(COMMANDS as readonly string[]).includes(cmd));
    expect(missing, 'commands of the public SDK the host does not answer').toEqual([]);
    for (const cmd of commands.values()) {
      expect(COMMAND_HANDLERS).toHaveProperty(cmd);
      expect(COMMAND_ARGS).toHaveProperty(cmd);
    }
  });

  it('lets an activity subscribe to every event of the public SDK (READY arrives unasked)', () => {
    const events = Object.values(Events).filter((e) => e !== 'READY');
    const missing = events.filter((e) => !(SUBSCRIBABLE_EVENTS as readonly string[]).includes(e));
    expect(missing, 'events of the public SDK the host refuses').toEqual([]);
    for (const event of events) expect(SUBSCRIBE_ARGS).toHaveProperty(event);
  });

  it('where the lists differ, only by the spec: GUILD_STATUS is an RPC event of the spec the public SDK does not list', () => {
    const sdkEvents = new Set<string>(Object.values(Events));
    expect(SUBSCRIBABLE_EVENTS.filter((e) => !sdkEvents.has(e))).toEqual(['GUILD_STATUS']);
    const sdkCmds = new Set(sdkCommands().values());
    // SUBSCRIBE and UNSUBSCRIBE are the SDK's subscribe() and unsubscribe(), not keys of sdk.commands.
    expect(COMMANDS.filter((c) => !sdkCmds.has(c))).toEqual(['SUBSCRIBE', 'UNSUBSCRIBE']);
  });

  it("platformpp's own activity SDK has a method for every command of the public one, by the same name", () => {
    const ours = Object.keys(createCommands(async () => undefined as never));
    expect([...sdkCommands().keys()].filter((key) => !ours.includes(key))).toEqual([]);
  });
});
