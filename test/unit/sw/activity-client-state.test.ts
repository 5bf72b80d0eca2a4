// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readEventsAfter } from '../../../src/store/event-log';
import { createTestClient, createWorld, type TestClient } from '../app-harness';
import { connectSession } from '../presence-fixtures';
import { setClock } from './webhook-fixtures';

/** The world's tokens last a week: tests that move the clock start it where they need it first. */
const JAN_2031 = '2031-01-01T00:00:00.000Z';

async function setup(scopes = 'identify rpc.activities.write relationships.read', clock = JAN_2031) {
  const client = await createTestClient();
  await setClock(client, clock);
  const world = await createWorld(client, scopes);
  return { client, world, appId: world.application.id as string };
}

async function events(client: TestClient, type: string) {
  return (await readEventsAfter(client.app.ctx.db, 0)).filter((e) => e.type === type);
}

describe('quests as sandbox records (GET_QUEST, GET_QUEST_ENROLLMENT_STATUS, QUEST_START_TIMER)', () => {
  it('POST /sandbox/quests makes a quest of an application; bad input is 50035 and stores nothing', async () => {
    const { client, appId } = await setup();
    const made = await client.post('/sandbox/quests', { application_id: appId, name: 'Win a match', play_seconds: 60 });
    expect(made.status).toBe(201);
    expect(made.body.quest).toMatchObject({
      application_id: appId,
      name: 'Win a match',
      play_seconds: 60,
      expires_at: null,
      external_cta_url: `https://discord.com/quests/${made.body.quest.id}`,
    });
    expect((await client.get(`/sandbox/quests/${made.body.quest.id}`)).body.quest).toEqual(made.body.quest);
    for (const bad of [
      { application_id: appId },
      { application_id: appId, name: 'x', play_seconds: 0 },
      { application_id: appId, name: 'x', external_cta_url: 'javascript:alert(1)' },
      { application_id: 'nope', name: 'x' },
    ])
      expect((await client.post('/sandbox/quests', bad)).body.code).toBe(50035);
    expect((await client.post('/sandbox/quests', { application_id: '1', name: 'x' })).body.code).toBe(10002);
    expect(await client.app.ctx.db.count('quests')).toBe(1);
  });

  it('enrolling tells the user client sessions of the application (QUEST_ENROLLMENT_STATUS_UPDATE, client audience) besides the webhook', async () => {
    const { client, world, appId } = await setup();
    const { quest } = (await client.post('/sandbox/quests', { application_id: appId, name: 'Q' })).body;
    await client.post(`/sandbox/quests/${quest.id}/enrollments`, { application_id: appId, user_id: world.alice.id });
    const [told] = await events(client, 'QUEST_ENROLLMENT_STATUS_UPDATE');
    expect(told.audience).toEqual({ user_ids: [world.alice.id], application_id: appId, client: true });
    expect(told.channels).toEqual(['gateway']);
    expect(told.data).toMatchObject({ quest_id: quest.id, is_enrolled: true, user_id: world.alice.id });
    // A quest of another application cannot be enrolled in through this one.
    const other = (await client.post('/sandbox/applications', { name: 'Other' })).body.application;
    const refused = await client.post(`/sandbox/quests/${quest.id}/enrollments`, {
      application_id: other.id,
      user_id: world.bob.id,
    });
    expect(refused.body.errors.quest_id._errors[0].message).toContain('another application');
  });

  it('GET_QUEST answers the quest still offered, enrolled ones first; none offered is 4002 "No eligible quests found"', async () => {
    const { client, world, appId } = await setup();
    const none = await client.get('/api/v10/rpc/quest', world.aliceAuth);
    expect(none.body).toMatchObject({ code: 4002, message: expect.stringContaining('No eligible quests found') });
    await client.post('/sandbox/quests', {
      application_id: appId,
      name: 'Old',
      expires_at: '2030-01-01T00:00:00.000Z',
    });
    const first = (await client.post('/sandbox/quests', { application_id: appId, name: 'A' })).body.quest;
    const second = (await client.post('/sandbox/quests', { application_id: appId, name: 'B' })).body.quest;
    expect((await client.get('/api/v10/rpc/quest', world.aliceAuth)).body).toEqual({
      quest_id: first.id,
      enrolled_at: null,
      completed_at: null,
      external_cta_url: first.external_cta_url,
    });
    await client.post(`/sandbox/quests/${second.id}/enrollments`, { application_id: appId, user_id: world.alice.id });
    expect((await client.get('/api/v10/rpc/quest', world.aliceAuth)).body).toMatchObject({
      quest_id: second.id,
      enrolled_at: '2031-01-01T00:00:00.000Z',
    });
  });

  it('GET_QUEST_ENROLLMENT_STATUS: another application quest is "Quest not found" (4002); the status says when the user enrolled', async () => {
    const { client, world, appId } = await setup();
    const other = (await client.post('/sandbox/applications', { name: 'Other' })).body.application;
    const theirs = (await client.post('/sandbox/quests', { application_id: other.id, name: 'T' })).body.quest;
    const mine = (await client.post('/sandbox/quests', { application_id: appId, name: 'M' })).body.quest;
    for (const id of [theirs.id, '999', 'not-a-quest'])
      expect((await client.get(`/api/v10/rpc/quests/${id}/enrollment`, world.aliceAuth)).body).toEqual({
        code: 4002,
        message: `Invalid command: Quest not found: ${id}`,
      });
    const path = `/api/v10/rpc/quests/${mine.id}/enrollment`;
    expect((await client.get(path, world.aliceAuth)).body).toEqual({
      quest_id: mine.id,
      is_enrolled: false,
      enrolled_at: null,
    });
    await setClock(client, '2031-01-03T04:05:06.000Z');
    await client.post(`/sandbox/quests/${mine.id}/enrollments`, { application_id: appId, user_id: world.alice.id });
    expect((await client.get(path, world.aliceAuth)).body).toEqual({
      quest_id: mine.id,
      is_enrolled: true,
      enrolled_at: '2031-01-03T04:05:06.000Z',
    });
  });

  it('QUEST_START_TIMER needs an enrollment (4002 "User is not enrolled in quest"); the quest completes once its play time ran, by the platform clock', async () => {
    const { client, world, appId } = await setup();
    const quest = (await client.post('/sandbox/quests', { application_id: appId, name: 'Q', play_seconds: 600 })).body
      .quest;
    const timer = `/api/v10/rpc/quests/${quest.id}/timer`;
    expect((await client.post(timer, undefined, world.aliceAuth)).body).toMatchObject({
      code: 4002,
      message: expect.stringContaining('User is not enrolled in quest'),
    });
    await client.post(`/sandbox/quests/${quest.id}/enrollments`, { application_id: appId, user_id: world.alice.id });
    expect((await client.post(timer, undefined, world.aliceAuth)).body).toEqual({ success: true });
    await setClock(client, '2031-01-01T00:09:59.000Z');
    expect((await client.get('/api/v10/rpc/quest', world.aliceAuth)).body.completed_at).toBeNull();
    // Starting it again keeps the first start.
    await client.post(timer, undefined, world.aliceAuth);
    await setClock(client, '2031-01-01T00:10:00.000Z');
    expect((await client.get('/api/v10/rpc/quest', world.aliceAuth)).body.completed_at).toBe(
      '2031-01-01T00:10:00.000Z',
    );
  });

  it('the quest routes need the identify scope', async () => {
    const { client, world } = await setup('rpc.activities.write');
    expect((await client.get('/api/v10/rpc/quest', world.aliceAuth)).body.code).toBe(50001);
  });
});

describe('the simulated device (THERMAL_STATE_UPDATE, since a browser has no thermal sensor)', () => {
  it('PUT /sandbox/users/{id}/device sets the thermal state; each change tells the user client sessions once', async () => {
    const { client, world } = await setup();
    const path = `/sandbox/users/${world.alice.id}/device`;
    expect((await client.get(path)).body.device).toEqual({ user_id: world.alice.id, thermal_state: 0 });
    expect((await client.put(path, { thermal_state: 2 })).body.device.thermal_state).toBe(2);
    await client.put(path, { thermal_state: 2 });
    expect((await client.get('/api/v10/rpc/device', world.aliceAuth)).body).toEqual({ thermal_state: 2 });
    const told = await events(client, 'THERMAL_STATE_UPDATE');
    expect(told).toHaveLength(1);
    expect(told[0].audience).toEqual({ user_ids: [world.alice.id], client: true });
    for (const bad of [{ thermal_state: 4 }, { thermal_state: '1' }, {}])
      expect((await client.put(path, bad)).body.code).toBe(50035);
    expect((await client.put('/sandbox/users/1/device', { thermal_state: 1 })).body.code).toBe(10013);
  });
});

describe('activity joins (ACTIVITY_JOIN): the Join button of someone activity', () => {
  async function joinable() {
    const s = await setup();
    await connectSession(s.client.app.ctx, s.world.alice.id);
    await s.client.put(
      '/api/v10/users/@me/activities',
      { activity: { type: 0, party: { id: 'p1', size: [1, 4] }, secrets: { join: 'table-7' } } },
      s.world.aliceAuth,
    );
    return s;
  }

  it('needs a joinable activity (secrets.join) of the application: else 50035 naming from_user_id, nothing stored', async () => {
    const { client, world, appId } = await setup();
    const refused = await client.post(`/sandbox/users/${world.bob.id}/activity-joins`, {
      application_id: appId,
      from_user_id: world.alice.id,
    });
    expect(refused.body.errors.from_user_id._errors[0].message).toContain('secrets.join');
    expect(await client.app.ctx.db.count('activity_joins')).toBe(0);
  });

  it('records the join with the secret, tells the joiner client sessions, and is claimed once', async () => {
    const { client, world, appId } = await joinable();
    const made = await client.post(`/sandbox/users/${world.bob.id}/activity-joins`, {
      application_id: appId,
      from_user_id: world.alice.id,
    });
    expect(made.status).toBe(201);
    expect(made.body.activity_join).toMatchObject({ user_id: world.bob.id, secret: 'table-7', invite_code: null });
    const [told] = await events(client, 'ACTIVITY_JOIN');
    expect(told.audience).toEqual({ user_ids: [world.bob.id], application_id: appId, client: true });
    const claim = '/api/v10/rpc/activity-joins/claim';
    expect((await client.post(claim, undefined, world.bobAuth)).body).toEqual({
      activity_join: { application_id: appId, secret: 'table-7' },
    });
    expect((await client.post(claim, undefined, world.bobAuth)).body).toEqual({ activity_join: null });
  });

  it('a join older than five minutes by the platform clock is stale and never delivered', async () => {
    const { client, world, appId } = await joinable();
    await client.post(`/sandbox/users/${world.bob.id}/activity-joins`, {
      application_id: appId,
      from_user_id: world.alice.id,
    });
    await setClock(client, '2031-01-01T00:05:01.000Z');
    expect(
      (await client.post('/api/v10/rpc/activity-joins/claim', undefined, world.bobAuth)).body.activity_join,
    ).toBeNull();
  });
});

describe('proxy tickets (REQUEST_PROXY_TICKET_REFRESH) and the URL-mapping proxy', () => {
  async function mapped() {
    const s = await setup();
    await s.client.put(`/sandbox/applications/${s.appId}/url-mappings`, {
      url_mappings: [{ prefix: '/scores', target: 'scores.example' }],
    });
    const forwarded: Request[] = [];
    const { forwardUrlMapping } = await import('../../../sw/routes/url-mapping-proxy');
    const send = (url: string) =>
      forwardUrlMapping(s.client.app.ctx, new Request(url), async (r) => (forwarded.push(r), new Response('ok')));
    return { ...s, forwarded, send };
  }

  it('a fresh ticket lets a mapped request through and never reaches the target; an unknown one is 401', async () => {
    const { client, world, forwarded, send } = await mapped();
    const { ticket } = (await client.post('/api/v10/rpc/proxy-tickets', undefined, world.aliceAuth)).body;
    expect(ticket).toMatch(/^pt\./);
    const ok = await send(`http://platform.test/.proxy/scores/top?n=3&discord_proxy_ticket=${ticket}`);
    expect(ok?.status).toBe(200);
    expect(forwarded[0].url).toBe('https://scores.example/top?n=3');
    const refused = await send('http://platform.test/.proxy/scores/top?discord_proxy_ticket=pt.forged');
    expect(refused?.status).toBe(401);
    expect((await refused!.json()).message).toContain('REQUEST_PROXY_TICKET_REFRESH');
    // The page's own files are no mapped requests: a stale ticket in its URL does not stop them.
    expect(await send('http://platform.test/.proxy/index.js?discord_proxy_ticket=pt.forged')).toBeUndefined();
    // Without a ticket the proxy forwards as it always did.
    expect((await send('http://platform.test/.proxy/scores/top'))?.status).toBe(200);
    expect(await client.app.ctx.db.count('proxy_tickets')).toBe(1);
  });

  it('a ticket lasts an hour by the platform clock; a refreshed one works again', async () => {
    const { client, world, send } = await mapped();
    const old = (await client.post('/api/v10/rpc/proxy-tickets', undefined, world.aliceAuth)).body.ticket;
    await setClock(client, '2031-01-01T01:00:00.000Z');
    expect((await send(`http://platform.test/.proxy/scores/x?discord_proxy_ticket=${old}`))?.status).toBe(401);
    const fresh = (await client.post('/api/v10/rpc/proxy-tickets', undefined, world.aliceAuth)).body.ticket;
    expect((await send(`http://platform.test/.proxy/scores/x?discord_proxy_ticket=${fresh}`))?.status).toBe(200);
    // Minting dropped the expired ticket.
    expect(await client.app.ctx.db.count('proxy_tickets')).toBe(1);
  });

  it("a ticket of another application does not open this one's mappings", async () => {
    const { client, appId } = await mapped();
    const other = (await client.post('/sandbox/applications', { name: 'Other' })).body.application;
    const carol = (await client.post('/sandbox/users', { username: 'carol' })).body.user;
    const token = (
      await client.post('/sandbox/tokens', { application_id: other.id, user_id: carol.id, scopes: 'identify' })
    ).body.access_token;
    const { ticket } = (await client.post('/api/v10/rpc/proxy-tickets', undefined, `Bearer ${token}`)).body;
    const page = 'http://platform.test/.proxy/scores/x';
    const { forwardUrlMapping } = await import('../../../sw/routes/url-mapping-proxy');
    const request = new Request(`${page}?discord_proxy_ticket=${ticket}`, {
      referrer: `http://platform.test/activities/${appId}/?frame_id=f&instance_id=i`,
    });
    expect((await forwardUrlMapping(client.app.ctx, request, async () => new Response('ok')))?.status).toBe(401);
  });
});

describe('image uploads (INITIATE_IMAGE_UPLOAD): ephemeral attachments served by the service worker', () => {
  function upload(client: TestClient, auth: string, file: Blob, name = 'shot.png') {
    const form = new FormData();
    form.set('file', file, name);
    return client.request('POST', '/api/v10/rpc/image-uploads', { raw: form, token: auth });
  }

  it('a PNG is stored and served at /attachments/ephemeral/{application}/{id}/{filename}, the same bytes', async () => {
    const { client, world, appId } = await setup();
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const made = await upload(client, world.aliceAuth, new Blob([bytes], { type: 'image/png' }));
    expect(made.status).toBe(201);
    expect(made.body.url).toMatch(new RegExp(`^http://platform.test/attachments/ephemeral/${appId}/\\d+/shot.png$`));
    const served = await client.app.fetch(new Request(made.body.url));
    expect(served.headers.get('Content-Type')).toBe('image/png');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
    // Under the proxy prefix as well.
    const proxied = made.body.url.replace('/attachments/', '/.proxy/attachments/');
    expect((await client.app.fetch(new Request(proxied))).status).toBe(200);
    expect((await client.app.fetch(new Request(made.body.url.replace('shot.png', 'other.png')))).status).toBe(404);
  });

  it('only JPEG, PNG and GIF images, within the upload limit: else 50035 / 413, nothing stored', async () => {
    const { client, world } = await setup();
    const text = await upload(client, world.aliceAuth, new Blob(['hi'], { type: 'text/html' }), 'x.html');
    expect(text.body.errors.file._errors[0].message).toContain('JPEG, PNG or GIF');
    const big = await upload(
      client,
      world.aliceAuth,
      new Blob([new Uint8Array(10 * 1024 * 1024 + 1)], { type: 'image/gif' }),
    );
    expect(big.status).toBe(413);
    expect(await client.app.ctx.db.count('ephemeral_attachments')).toBe(0);
  });
});
