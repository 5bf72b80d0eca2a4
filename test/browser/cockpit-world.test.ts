/**
 * The cockpit's clock and world panel in Chromium: the sandbox clock set and put back to real
 * time from the panel, and each user's rich presence as the activity set it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { mountCockpitPage } from './cockpit-harness';

afterEach(() => {
  document.body.replaceChildren();
});

const world = () => page.getByRole('region', { name: 'The clock and the world' });

describe('the clock and the world from the cockpit', () => {
  it('sets the sandbox clock (every dated rule follows it) and puts it back to real time', async () => {
    const { world: w } = await mountCockpitPage();
    await page.getByText('The clock and the world').click();
    await world().getByLabelText('Set to').fill('2026-03-02T10:30');
    await world().getByRole('button', { name: 'Set the clock' }).click();
    await expect.poll(async () => (await w.sandbox.getClock()).frozen).toBe(true);
    expect(new Date((await w.sandbox.getClock()).now).getTime()).toBe(new Date('2026-03-02T10:30').getTime());
    await expect.element(world().getByText(/\(frozen\)/)).toBeVisible();
    await world().getByRole('button', { name: 'Real time' }).click();
    await expect.poll(async () => (await w.sandbox.getClock()).frozen).toBe(false);
    await expect.element(world().getByText(/\(real time\)/)).toBeVisible();
  });

  it('lists the users with the rich presence their activity set, after a refresh', async () => {
    const { sdks } = await mountCockpitPage();
    await page.getByText('The clock and the world').click();
    await expect
      .element(world().getByRole('listitem').filter({ hasText: 'Alice' }))
      .toHaveTextContent(/no rich presence/);
    await sdks[0].commands.setActivity({ activity: { type: 0, details: 'Round 3', state: 'Winning' } });
    await world().getByRole('button', { name: 'Refresh' }).click();
    await expect
      .element(world().getByRole('listitem').filter({ hasText: 'Alice' }))
      .toHaveTextContent(/Round 3 · Winning/);
    await expect
      .element(world().getByRole('listitem').filter({ hasText: 'Bob' }))
      .toHaveTextContent(/no rich presence/);
  });
});
