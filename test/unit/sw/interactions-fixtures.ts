/**
 * Fixtures for the interaction tests: the message world (a guild owned by alice with bob and
 * the game's bot) plus a global `/roll` command, helpers to invoke it as a user, answer it as
 * the app, and read what the store holds.
 */
import { expect } from 'vitest';
import type { FetchLike } from '../../../src/platform/oauth2/oidc';
import { APPLICATION_FLAGS } from '../../../src/store/records/core';
import { createTestClient, createWorld, type JsonReply, type TestClient } from '../app-harness';
import { MESSAGE_SCOPES } from './messages-fixtures';
import { ALL_STORES } from '../../../src/store/platform-catalogue';

/** A guild world with the app's `/roll` command; `webhookFetch` stands in for interactions endpoints. */
export async function interactionWorld(options: { webhookFetch?: FetchLike; flags?: number } = {}) {
  const client = await createTestClient({ webhookFetch: options.webhookFetch });
  const w = await createWorld(client, MESSAGE_SCOPES);
  const { guild, channels } = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: w.alice.id })).body;
  const general = channels.find((c: { name: string }) => c.name === 'general');
  for (const id of [w.bob.id, w.bot.id]) await client.put(`/sandbox/guilds/${guild.id}/members/${id}`, {});
  const commands = `/api/v10/applications/${w.application.id}/commands`;
  const roll = (
    await client.post(
      commands,
      {
        name: 'roll',
        description: 'Roll a die',
        options: [{ type: 4, name: 'sides', description: 'Sides', min_value: 2, max_value: 100 }],
      },
      w.botAuth,
    )
  ).body;
  const activity = (
    await client.post('/sandbox/applications', {
      name: 'Activity',
      owner_id: w.alice.id,
      flags: APPLICATION_FLAGS.EMBEDDED | (options.flags ?? 0),
    })
  ).body;
  const base = { application_id: w.application.id, user_id: w.alice.id, guild_id: guild.id, channel_id: general.id };
  return {
    client,
    ...w,
    guild,
    general,
    commands,
    roll,
    activity: { id: activity.application.id, auth: `Bot ${activity.bot_token}`, bot: activity.bot },
    /** A user interacts (defaults: alice invokes /roll in #general). */
    interact: (body: Record<string, unknown> = {}): Promise<JsonReply> =>
      client.post('/sandbox/interactions', { ...base, type: 2, data: { name: 'roll' }, ...body }),
    /** The app answers an interaction. */
    callback: (interaction: { id: string; token: string }, body: unknown, query = ''): Promise<JsonReply> =>
      client.post(`/api/v10/interactions/${interaction.id}/${interaction.token}/callback${query}`, body),
    webhook: (interaction: { token: string }, rest = '', appId = w.application.id) =>
      `/api/v10/webhooks/${appId}/${interaction.token}${rest}`,
    /** Grants `applications.commands` to `userId`: the user installs the app. */
    userInstall: async (userId: string, applicationId = w.application.id) =>
      client.post('/sandbox/tokens', {
        application_id: applicationId,
        user_id: userId,
        scopes: 'applications.commands',
      }),
  };
}

export type InteractionWorld = Awaited<ReturnType<typeof interactionWorld>>;

/** Invokes and asserts the interaction was created. */
export async function invoked(w: InteractionWorld, body: Record<string, unknown> = {}) {
  const reply = await w.interact(body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.interaction as Record<string, any> & { id: string; token: string };
}

/** Everything the database holds, as one JSON string (to prove a secret is nowhere in it). */
export async function storeDump(client: TestClient): Promise<string> {
  const db = client.db;
  const out: unknown[] = [];
  for (const name of ALL_STORES) out.push(await db.getAll(name));
  return JSON.stringify(out);
}

/** Freezes the platform clock at `iso`. */
export async function freeze(client: TestClient, iso: string): Promise<void> {
  expect((await client.put('/sandbox/clock', { now: iso })).status).toBe(200);
}
