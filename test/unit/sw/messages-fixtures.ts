/**
 * Fixtures for the guild channel message tests: a guild owned by alice with bob, the game's
 * bot and a second bot whose application has the MESSAGE_CONTENT intent; paths; multipart
 * bodies; and readers of what the store and the event log hold.
 */
import { expect } from 'vitest';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { APPLICATION_FLAGS } from '../../../src/store/records/core';
import type { EventRecord } from '../../../src/store/schema';
import { createTestClient, createWorld, type JsonReply, type TestClient } from '../app-harness';

/** The scopes the users' tokens carry: the SDK's, plus the sandbox's message scopes. */
export const MESSAGE_SCOPES = 'openid sdk.social_layer messages.read messages.write';

/** A guild with alice (owner), bob and two bots in it, and its text channel. */
export async function messageWorld() {
  const client = await createTestClient();
  const world = await createWorld(client, MESSAGE_SCOPES);
  const { guild, channels } = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body;
  const general = channels.find((c: { name: string }) => c.name === 'general');
  const reader = (
    await client.post('/sandbox/applications', {
      name: 'Reader',
      flags: APPLICATION_FLAGS.GATEWAY_MESSAGE_CONTENT_LIMITED,
    })
  ).body;
  for (const id of [world.bob.id, world.bot.id, reader.bot.id])
    await client.put(`/sandbox/guilds/${guild.id}/members/${id}`, {});
  return {
    client,
    ...world,
    guild,
    general,
    reader: reader.bot,
    readerAuth: `Bot ${reader.bot_token}`,
    messages: (channelId: string = general.id) => `/api/v10/channels/${channelId}/messages`,
    /** A new channel with these overwrites. */
    channel: async (body: Record<string, unknown> = {}) =>
      (await client.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'extra', type: 0, ...body })).body.channel,
    /** A role with these permissions given to `userId`. */
    grant: async (userId: string, permissions: bigint) => {
      const role = (
        await client.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'r', permissions: String(permissions) })
      ).body.role;
      await client.put(`/sandbox/guilds/${guild.id}/members/${userId}`, { roles: [role.id] });
      return role;
    },
  };
}

export type MessageWorld = Awaited<ReturnType<typeof messageWorld>>;

/** An overwrite that denies `bits` to `id` (a role: type 0, a member: type 1). */
export function deny(id: string, bits: bigint, type: 0 | 1 = 0) {
  return { id, type, allow: '0', deny: String(bits) };
}

/** The @everyone permissions less those named. */
export const VIEW = PERMISSIONS.VIEW_CHANNEL;

/** A multipart body: `payload_json` and files as `files[n]`. */
export function multipart(
  payload: unknown,
  files: { name: string; content: string | Uint8Array<ArrayBuffer>; type?: string }[] = [],
): FormData {
  const form = new FormData();
  form.set('payload_json', JSON.stringify(payload));
  files.forEach((f, i) => form.set(`files[${i}]`, new Blob([f.content], { type: f.type ?? 'text/plain' }), f.name));
  return form;
}

/** Sends a multipart request. */
export function sendForm(
  client: TestClient,
  method: string,
  path: string,
  form: FormData,
  token: string,
): Promise<JsonReply> {
  return client.request(method, path, { raw: form, token });
}

/** How many records the message stores and the event log hold. */
export async function messageCounts(client: TestClient) {
  const db = client.db;
  const [messages, files, events, counters] = await Promise.all([
    db.count('channel_messages'),
    db.count('attachment_files'),
    db.count('events'),
    db.count('forward_counters'),
  ]);
  return { messages, files, events, counters };
}

/** The events in the log of `type`, oldest first. */
export async function eventsOf(client: TestClient, type: string): Promise<EventRecord[]> {
  return (await client.db.getAll('events')).filter((e) => e.type === type);
}

/** Asserts an API error by status and code. */
export function expectError(reply: JsonReply, status: number, code: number): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.code).toBe(code);
}

/** Asserts a 400 50035 whose field errors name `path` (dotted). */
export function expectInvalidField(reply: JsonReply, path: string): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(400);
  expect(reply.body.code).toBe(50035);
  let node = reply.body.errors;
  for (const part of path.split('.')) {
    expect(node, `errors name ${path}: ${JSON.stringify(reply.body.errors)}`).toHaveProperty(part);
    node = node[part];
  }
  expect(node._errors[0].message).toBeTypeOf('string');
}
