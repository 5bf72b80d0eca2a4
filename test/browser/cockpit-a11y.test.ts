/**
 * The cockpit's panels are accessible: axe-core (WCAG 2.1 AA and best practice) finds no
 * serious or critical violation in the host page's header, players and cockpit, every panel
 * open and the inspector holding a session, in Chromium.
 */
import axe from 'axe-core';
import { afterEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { renderHostView } from '../../src/vite/host/host-view';
import { mountCockpitPage } from './cockpit-harness';

afterEach(() => {
  document.body.replaceChildren();
});

it('no serious or critical axe-core violation in the cockpit, at 1280x800 and 390x844', async () => {
  const { players, sdks, cockpit, world } = await mountCockpitPage(['alice', 'bob']);
  const header = document.createElement('header');
  document.body.prepend(header);
  renderHostView(header, {
    applicationName: 'Tic-tac-toe',
    applicationId: world.application.id,
    users: ['alice', 'bob', 'chen'],
    current: ['alice', 'bob'],
    frame: { status: players[0].frame.status, rpc: players[0].frame.rpcStatus, error: null },
    problem: null,
    onReset: () => undefined,
  });
  await sdks[0].commands.getPlatformBehaviors();
  cockpit.clientEvents.setLayoutMode(1);
  for (const details of document.querySelectorAll('details')) details.open = true;
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ]) {
    await page.viewport(width, height);
    const results = await axe.run(
      // The activities are the developer's pages, not the cockpit's.
      { include: [['body']], exclude: [['pp-activity-frame']] },
      { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } },
    );
    console.log(`${width}x${height}: ${results.violations.map((v) => `${v.id} (${v.impact})`).join(', ') || 'none'}`);
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious, `${width}x${height}`).toEqual([]);
  }
}, 60_000);
