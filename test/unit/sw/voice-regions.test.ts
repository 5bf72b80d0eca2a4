// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createTestClient } from '../app-harness';
import { guildWorld } from './guild-admin-fixtures';

describe('voice regions (the sandbox’s fixed list)', () => {
  it('GET /voice/regions lists the regions with one optimal (sandbox); GET /guilds/{id}/regions the same for a member, 50001 otherwise', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    const regions = (await client.get('/api/v10/voice/regions', w.botAuth)).body;
    expect(regions.filter((r: any) => r.optimal).map((r: any) => r.id)).toEqual(['sandbox']);
    expect(regions.map((r: any) => r.id)).toContain('rotterdam');
    expect((await client.get(`/api/v10/guilds/${w.guild.id}/regions`, w.botAuth)).body).toEqual(regions);
    const other = (await client.post('/sandbox/applications', { name: 'Outsider' })).body;
    expect((await client.get(`/api/v10/guilds/${w.guild.id}/regions`, `Bot ${other.bot_token}`)).body.code).toBe(50001);
  });
});
