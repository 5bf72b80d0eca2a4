/**
 * The guide's picture of the cockpit (docs/your-own-activity.md): the host page's header, Alice
 * and Bob side by side, and the cockpit's panels with a short session in the inspector, at
 * 1280x800 in Chromium. Written to test-results/screenshots/cockpit.png; the guide's copy is
 * docs/images/cockpit.png.
 */
import { afterEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { renderHostView } from '../../src/vite/host/host-view';
import { mountCockpitPage } from './cockpit-harness';

afterEach(() => {
  document.body.replaceChildren();
});

it('the cockpit with two players and a recorded session, as the guide shows it', async () => {
  await page.viewport(1280, 800);
  const { players, sdks, layout, cockpit, world } = await mountCockpitPage(
    ['alice', 'bob'],
    'activity-cockpit-tour.html',
  );
  document.body.style.cssText = 'margin: 0; height: 800px; display: flex; flex-direction: column;';
  const header = document.createElement('header');
  document.body.prepend(header);
  layout.style.height = '';
  renderHostView(header, {
    applicationName: 'Tic-tac-toe',
    applicationId: world.application.id,
    users: ['alice', 'bob', 'chen'],
    current: ['alice', 'bob'],
    frame: { status: players[0].frame.status, rpc: players[0].frame.rpcStatus, error: null },
    problem: null,
    onReset: () => undefined,
  });
  for (const player of players) await (player.frame.iframe!.contentWindow as any).listen();
  await sdks[0].commands.getChannel({ channel_id: players[0].frame.channelId });
  await sdks[1].commands.setActivity({ activity: { type: 0, details: 'Playing X', state: 'Turn 3' } });
  cockpit.clientEvents.setLayoutMode(2);
  const tour = players[0].frame.iframe!.contentDocument!;
  await expect.poll(() => tour.getElementById('layout')?.textContent).toBe('grid');
  await expect.poll(() => tour.getElementById('participants')?.textContent).toBe('alice, bob');
  await page.getByRole('listitem').filter({ hasText: 'GET_CHANNEL' }).getByText('GET_CHANNEL').click();
  const path = await page.screenshot({ path: '../../test-results/screenshots/cockpit.png' });
  expect(path).toMatch(/cockpit\.png$/);
}, 60_000);
