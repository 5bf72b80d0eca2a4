// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { eventsOf, expectError, messageWorld } from './messages-fixtures';

describe('Crosspost Message: POST /channels/{id}/messages/{id}/crosspost (announcement channels)', () => {
  it('publishes a message of an announcement channel once: the CROSSPOSTED flag (1 << 0), MESSAGE_UPDATE; again is 400 40033', async () => {
    const w = await messageWorld();
    const news = await w.channel({ name: 'news', type: 5 });
    const sent = (await w.client.post(w.messages(news.id), { content: 'release!' }, w.botAuth)).body;
    const path = `${w.messages(news.id)}/${sent.id}/crosspost`;
    const published = await w.client.post(path, undefined, w.botAuth);
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body).toMatchObject({ id: sent.id, flags: 1 });
    expect((await w.client.get(`${w.messages(news.id)}/${sent.id}`, w.aliceAuth)).body.flags).toBe(1);
    const [update] = await eventsOf(w.client, 'MESSAGE_UPDATE');
    expect(update.data).toMatchObject({ id: sent.id, flags: 1, guild_id: w.guild.id });
    expectError(await w.client.post(path, undefined, w.botAuth), 400, 40033);
  });

  it('the author needs SEND_MESSAGES, anyone else MANAGE_MESSAGES (403 50013); a channel of another type is 400 50024', async () => {
    const w = await messageWorld();
    const news = await w.channel({ name: 'news', type: 5 });
    const sent = (await w.client.post(w.messages(news.id), { content: 'release!' }, w.aliceAuth)).body;
    const path = `${w.messages(news.id)}/${sent.id}/crosspost`;
    expectError(await w.client.post(path, undefined, w.botAuth), 403, 50013);
    expect((await w.client.get(`${w.messages(news.id)}/${sent.id}`, w.aliceAuth)).body.flags).toBe(0);
    await w.grant(w.bot.id, PERMISSIONS.MANAGE_MESSAGES);
    expect((await w.client.post(path, undefined, w.botAuth)).status).toBe(200);
    const plain = (await w.client.post(w.messages(), { content: 'chat' }, w.botAuth)).body;
    expectError(await w.client.post(`${w.messages()}/${plain.id}/crosspost`, undefined, w.botAuth), 400, 50024);
  });
});
