// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createTestClient, createWorld } from '../app-harness';
import { enableWebhooks, setClock, webhookWorld } from './webhook-fixtures';

describe('QUEST_USER_ENROLLMENT (spec: webhook event "user enrolls in a quest")', () => {
  it('an enrollment is delivered by webhook once; enrolling again records nothing', async () => {
    const { client, world, endpoint } = await webhookWorld();
    await enableWebhooks(client, world.application.id, ['QUEST_USER_ENROLLMENT']);
    const body = { application_id: world.application.id, user_id: world.alice.id, quest_name: 'Win a match' };
    const first = await client.post('/sandbox/quests/777/enrollments', body);
    expect(first.status).toBe(201);
    expect(first.body.enrollment).toMatchObject({
      quest_id: '777',
      user_id: world.alice.id,
      quest_name: 'Win a match',
    });
    expect((await client.post('/sandbox/quests/777/enrollments', body)).status).toBe(200);
    await client.app.webhooks.settled();
    const sent = endpoint.events().filter((e) => e.payload.event?.type === 'QUEST_USER_ENROLLMENT');
    expect(sent).toHaveLength(1);
    expect(sent[0].payload.event.data).toMatchObject({ quest_id: '777', user: { id: world.alice.id } });
  });

  it('never reaches the gateway, and bad input stores nothing', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    await client.post('/sandbox/quests/5/enrollments', {
      application_id: world.application.id,
      user_id: world.alice.id,
    });
    const events = await client.app.ctx.db.getAll('events');
    expect(events.find((e) => e.type === 'QUEST_USER_ENROLLMENT')?.channels).toEqual(['webhook']);
    expect(
      (await client.post('/sandbox/quests/6/enrollments', { application_id: world.application.id, user_id: '1' })).body
        .code,
    ).toBe(10013);
    expect(
      (
        await client.post('/sandbox/quests/x/enrollments', {
          application_id: world.application.id,
          user_id: world.alice.id,
        })
      ).body.code,
    ).toBe(50035);
    expect(await client.app.ctx.db.count('quest_enrollments')).toBe(1);
  });
});

describe('privileged intents applications (spec, Limits: "reapplication once per year")', () => {
  it('an approval grants the intents; after a denial the application may reapply only a year later, by the platform clock', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const path = `/sandbox/applications/${world.application.id}/privileged-intents-applications`;
    await setClock(client, '2026-01-01T00:00:00.000Z');
    expect((await client.post(path, { decision: 'denied' })).status).toBe(201);
    const early = await client.post(path, { decision: 'approved' });
    expect(early.status).toBe(400);
    expect(early.body.errors.application_id._errors[0].message).toContain('2027-01-01T00:00:00.000Z');
    expect(
      (await client.app.ctx.db.get('applications', world.application.id))!.approvals.privileged_intents_approved,
    ).toBe(false);
    await setClock(client, '2026-12-31T23:59:59.999Z');
    expect((await client.post(path, { decision: 'approved' })).status).toBe(400);
    await setClock(client, '2027-01-01T00:00:00.000Z');
    expect((await client.post(path, { decision: 'approved' })).status).toBe(201);
    expect(
      (await client.app.ctx.db.get('applications', world.application.id))!.approvals.privileged_intents_approved,
    ).toBe(true);
    expect((await client.post(path, { decision: 'approved' })).status).toBe(400);
    expect((await client.post(path, { decision: 'maybe' })).body.code).toBe(50035);
  });
});
