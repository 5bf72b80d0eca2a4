/**
 * The RPC inspector of the host page's cockpit, in Chromium: every message between the
 * activity (the public SDK, unchanged) and the host, in order, with each command's answer and
 * time, each event with its subscription, CLOSE with its code, and the activity's `/.proxy/`
 * requests from the service worker; credentials redacted; filters, copy and export.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { mountCockpitPage } from './cockpit-harness';

afterEach(() => {
  document.body.replaceChildren();
});

describe('the RPC inspector shows the session as the wire carried it', () => {
  it('HANDSHAKE, READY, each command with its args, answer and time, an event with its SUBSCRIBE, and CLOSE with its code', async () => {
    const { cockpit, sdks, players } = await mountCockpitPage();
    const [sdk] = sdks;
    await sdk.subscribe('ACTIVITY_LAYOUT_MODE_UPDATE', () => undefined);
    await sdk.commands.getChannel({ channel_id: players[0].frame.channelId });
    cockpit.clientEvents.setLayoutMode(2);
    const log = cockpit.inspector.log;
    await expect.poll(() => log.entries.some((e) => e.name === 'ACTIVITY_LAYOUT_MODE_UPDATE')).toBe(true);
    const names = log.entries.map((e) => e.name);
    expect(names.indexOf('HANDSHAKE')).toBeLessThan(names.indexOf('READY'));
    expect(names.indexOf('READY')).toBeLessThan(names.indexOf('AUTHENTICATE'));
    const authenticate = log.entries.find((e) => e.name === 'AUTHENTICATE')!;
    // The token the activity sent and the one the host answered are redacted.
    expect(authenticate.payload).toEqual({ access_token: '[redacted]' });
    expect(authenticate.reply).toMatchObject({ access_token: '[redacted]', user: { username: 'alice' } });
    expect(authenticate.duration_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(log.entries)).not.toMatch(/"access_token":"(?!\[redacted\])/);
    const subscribe = log.entries.find((e) => e.name === 'SUBSCRIBE ACTIVITY_LAYOUT_MODE_UPDATE')!;
    const event = log.entries.find((e) => e.name === 'ACTIVITY_LAYOUT_MODE_UPDATE')!;
    expect(event).toMatchObject({ kind: 'event', from: 'host', payload: { layout_mode: 2 } });
    expect(event.subscription?.n).toBe(subscribe.n);
    const channel = log.entries.find((e) => e.name === 'GET_CHANNEL')!;
    expect(channel.reply).toMatchObject({ id: players[0].frame.channelId });

    // An error answer is kept as the ERROR it was.
    await sdk.commands.getChannel({ channel_id: '1' }).catch(() => undefined);
    await expect.poll(() => log.entries.filter((e) => e.name === 'GET_CHANNEL' && e.error).length).toBe(1);

    cockpit.clientEvents.closeInstance();
    await expect.poll(() => log.entries.at(-1)).toMatchObject({ kind: 'close', from: 'host', payload: { code: 1000 } });
  });

  it("the activity's /.proxy/ requests: method, path (credentials redacted), who answered, status, time", async () => {
    const { cockpit, players } = await mountCockpitPage();
    const win = players[0].frame.iframe!.contentWindow as Window;
    expect((await win.fetch('/.proxy/api/v10/users/@me')).status).toBe(401);
    await win.fetch('/.proxy/sandbox/clock?code=abc123');
    const log = cockpit.inspector.log;
    await expect.poll(() => log.entries.filter((e) => e.kind === 'proxy').length).toBeGreaterThanOrEqual(2);
    const me = log.entries.find((e) => e.name === 'GET /.proxy/api/v10/users/@me')!;
    expect(me).toMatchObject({ frame_id: players[0].frame.frameId, proxy: { target: 'platform', status: 401 } });
    expect(me.duration_ms).toBeGreaterThanOrEqual(0);
    expect(log.entries.find((e) => e.name.startsWith('GET /.proxy/sandbox/clock'))!.name).toBe(
      'GET /.proxy/sandbox/clock?code=%5Bredacted%5D',
    );
  });

  it('filters by kind and by name, expands an entry, copies it, and exports the session as a file', async () => {
    const { cockpit, sdks } = await mountCockpitPage();
    await sdks[0].commands.getPlatformBehaviors();
    const inspector = page.getByRole('region', { name: 'RPC inspector' });
    await expect.element(inspector.getByText('GET_PLATFORM_BEHAVIORS')).toBeVisible();
    await inspector.getByRole('checkbox', { name: 'Commands' }).click();
    await expect.element(inspector.getByText('GET_PLATFORM_BEHAVIORS')).not.toBeInTheDocument();
    await inspector.getByRole('checkbox', { name: 'Commands' }).click();
    await userEvent.fill(inspector.getByRole('searchbox', { name: 'Command or event' }).element(), 'platform_beh');
    await expect.poll(() => document.querySelectorAll('.rpc-log li').length).toBe(1);
    await inspector.getByText('GET_PLATFORM_BEHAVIORS').click();
    await expect.element(inspector.getByText('"iosKeyboardResizesView": false', { exact: false })).toBeVisible();
    await inspector.getByRole('button', { name: 'Copy as JSON' }).click();
    await expect.element(inspector.getByRole('status')).toHaveTextContent(/entry #\d+ (copied|could not be copied)/);

    const exported = new Promise<HTMLAnchorElement>((resolve) => {
      const click = HTMLAnchorElement.prototype.click;
      HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
        HTMLAnchorElement.prototype.click = click;
        resolve(this);
      };
    });
    await inspector.getByRole('button', { name: 'Export session' }).click();
    const link = await exported;
    expect(link.download).toMatch(/^rpc-session-.*\.json$/);
    const session = JSON.parse(cockpit.inspector.log.toJson());
    expect(session.entries.length).toBe(cockpit.inspector.log.entries.length);
  });

  it('paused, the inspector records nothing: the frames report to no one', async () => {
    const { cockpit, sdks } = await mountCockpitPage();
    cockpit.inspector.stop();
    const before = cockpit.inspector.log.entries.length;
    await sdks[0].commands.getPlatformBehaviors();
    expect(cockpit.inspector.log.entries.length).toBe(before);
    cockpit.inspector.start();
    await sdks[0].commands.getPlatformBehaviors();
    expect(cockpit.inspector.log.entries.length).toBe(before + 1);
  });
});

describe("the inspector's cost", () => {
  it('measures the round trip of a command with the inspector recording and paused (the figure is printed)', async () => {
    const { cockpit, sdks } = await mountCockpitPage();
    const sdk = sdks[0];
    const round = async () => {
      const t = performance.now();
      await sdk.commands.getPlatformBehaviors();
      return performance.now() - t;
    };
    const open: number[] = [];
    const closed: number[] = [];
    for (let i = 0; i < 10; i++) await round(); // warm-up
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    // Blocks, so that the panel's rendering (once per animation frame while recording) lands
    // in the recording block it belongs to and never in a paused one.
    for (let block = 0; block < 6; block++) {
      cockpit.inspector.start();
      for (let i = 0; i < 50; i++) open.push(await round());
      cockpit.inspector.stop();
      await frame();
      await frame();
      for (let i = 0; i < 50; i++) closed.push(await round());
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(
      `inspector cost: command round trip median ${median(open).toFixed(3)} ms recording, ${median(closed).toFixed(3)} ms paused (${open.length} each)`,
    );
    expect(open.length).toBe(closed.length);
  }, 60_000);
});
