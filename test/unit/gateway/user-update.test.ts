// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createGatewayHarness } from './gateway-harness';

describe("USER_UPDATE when a user changes their profile (the source of an activity's CURRENT_USER_UPDATE)", () => {
  it("PATCH /sandbox/users/{id} {global_name, avatar} dispatches USER_UPDATE to the user's own sessions only", async () => {
    const h = await createGatewayHarness();
    const alice = await h.identify(h.world.aliceAuth, { intents: 0 });
    const bob = await h.identify(h.world.bobAuth, { intents: 0 });
    const avatar = 'a'.repeat(32);
    const response = await h.api.patch(`/sandbox/users/${h.world.alice.id}`, { global_name: 'Alice A.', avatar });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ id: h.world.alice.id, global_name: 'Alice A.', avatar });
    const update = await alice.waitForDispatch('USER_UPDATE');
    expect(update.d).toMatchObject({ id: h.world.alice.id, username: 'alice', global_name: 'Alice A.', avatar });
    await h.flush();
    expect(bob.dispatches('USER_UPDATE')).toEqual([]);
  });

  it('a bad profile is 400 (50035) naming the field and changes nothing; an unchanged one emits nothing', async () => {
    const h = await createGatewayHarness();
    const alice = await h.identify(h.world.aliceAuth, { intents: 0 });
    const bad = await h.api.patch(`/sandbox/users/${h.world.alice.id}`, { global_name: 'ok', avatar: 'not-a-hash' });
    expect([bad.status, bad.body.code, Object.keys(bad.body.errors)]).toEqual([400, 50035, ['avatar']]);
    expect((await h.api.db.get('users', h.world.alice.id))!.global_name).toBeNull();
    expect((await h.api.patch(`/sandbox/users/${h.world.alice.id}`, { username: 'alice' })).status).toBe(200);
    expect((await h.api.patch('/sandbox/users/123456789012345678', { username: 'nobody' })).body.code).toBe(10013);
    await h.flush();
    expect(alice.dispatches('USER_UPDATE')).toEqual([]);
  });
});
