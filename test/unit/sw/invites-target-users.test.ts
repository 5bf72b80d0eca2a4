// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseTargetUsersCsv } from '../../../src/platform/channels/invites-target-users';
import { createTestClient, type TestClient } from '../app-harness';
import { PERMISSIONS, countOf, csvForm, guildWorld, otherBot } from './guild-admin-fixtures';

const INVITE = PERMISSIONS.CREATE_INSTANT_INVITE;

async function targetedInvite(client: TestClient, csv: (w: Awaited<ReturnType<typeof guildWorld>>) => string) {
  const w = await guildWorld(client, INVITE);
  const res = await client.request('POST', `/api/v10/channels/${w.text.id}/invites`, {
    raw: csvForm(csv(w)),
    token: w.botAuth,
  });
  return { w, res };
}

describe('target_users_file (spec: CSV file of user ids allowed to accept)', () => {
  it('only the listed users may accept; anyone else gets 10006 and nothing changes', async () => {
    const client = await createTestClient();
    const { w, res } = await targetedInvite(client, (w) => `user_id\n${w.carol.id}\n`);
    expect(res.status).toBe(200);
    const dave = (await client.post('/sandbox/users', { username: 'dave' })).body.user;
    const refused = await client.post(`/sandbox/invites/${res.body.code}/accept`, { user_id: dave.id });
    expect([refused.status, refused.body.code]).toEqual([404, 10006]);
    expect(await client.app.ctx.db.get('members', [w.guild.id, dave.id])).toBeUndefined();
    expect((await client.app.ctx.db.get('invites', res.body.code))!.uses).toBe(0);
    const accepted = await client.post(`/sandbox/invites/${res.body.code}/accept`, { user_id: w.carol.id });
    expect(accepted.body.joined).toBe(true);
  });

  it('a user who is not a target does not see the invite (10006); a target does', async () => {
    const client = await createTestClient();
    const { w, res } = await targetedInvite(client, (w) => `${w.alice.id}\n`);
    expect((await client.get(`/api/v10/invites/${res.body.code}`, w.bobAuth)).body.code).toBe(10006);
    expect((await client.get(`/api/v10/invites/${res.body.code}`, w.aliceAuth)).body.code).toBe(res.body.code);
  });

  it('takes bare ids or the user_id header, ignores blank lines and duplicates', () => {
    expect(parseTargetUsersCsv('1\r\n\r\n2\n1\n').map((e) => e.id)).toEqual(['1', '2']);
    expect(parseTargetUsersCsv('\uFEFFuser_id\n"3"\n')).toEqual([{ id: '3', line: 2 }]);
  });

  it('a file with invalid lines is 400 (50035) naming each line on target_users_file; nothing is stored', async () => {
    const client = await createTestClient();
    const { res } = await targetedInvite(client, (w) => `user_id\n${w.carol.id}\nabc\n99999999999999999999999\n`);
    expect([res.status, res.body.code]).toEqual([400, 50035]);
    expect(res.body.errors.target_users_file._errors.map((e: any) => e.message)).toEqual([
      'Line 3: invalid user ID format',
      'Line 4: invalid user ID - must be a valid snowflake',
    ]);
    expect(await countOf(client, 'invites')).toBe(0);
  });

  it('ids of users that do not exist are refused (400 naming the line); so is a file with no id', async () => {
    const client = await createTestClient();
    const { res } = await targetedInvite(client, (w) => `${w.carol.id}\n123\n`);
    expect(res.body.errors.target_users_file._errors[0].message).toBe('Line 2: unknown user 123');
    const empty = await targetedInvite(client, () => 'user_id\n');
    expect(empty.res.body.code).toBe(50035);
    expect(await countOf(client, 'invites')).toBe(0);
  });
});

describe('GET /invites/{code}/target-users (spec: CSV with a single header user_id and one user id per line)', () => {
  it('answers text/csv: the header user_id, then one id per line', async () => {
    const client = await createTestClient();
    const { w, res } = await targetedInvite(client, (w) => `${w.carol.id}\n${w.bob.id}\n`);
    const csv = await client.get(`/api/v10/invites/${res.body.code}/target-users`, w.botAuth);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('Content-Type')).toMatch(/^text\/csv/);
    expect(csv.body).toBe(`user_id\n${w.carol.id}\n${w.bob.id}\n`);
  });

  it('an invite without target users is 404 (10129)', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE);
    const { code } = (await client.post(`/api/v10/channels/${w.text.id}/invites`, {}, w.botAuth)).body;
    const res = await client.get(`/api/v10/invites/${code}/target-users`, w.botAuth);
    expect([res.status, res.body.code]).toEqual([404, 10129]);
  });

  it('the inviter, MANAGE_GUILD or VIEW_AUDIT_LOG may read it; another bot without them gets 50013', async () => {
    const client = await createTestClient();
    const { w, res } = await targetedInvite(client, (w) => `${w.carol.id}\n`);
    const plain = await otherBot(client, w.guild.id, 0n);
    expect((await client.get(`/api/v10/invites/${res.body.code}/target-users`, plain.auth)).body.code).toBe(50013);
    const auditor = await otherBot(client, w.guild.id, PERMISSIONS.VIEW_AUDIT_LOG);
    expect((await client.get(`/api/v10/invites/${res.body.code}/target-users`, auditor.auth)).status).toBe(200);
  });
});

describe('PUT /invites/{code}/target-users and the job status', () => {
  it('replaces the target users with the uploaded file', async () => {
    const client = await createTestClient();
    const { w, res } = await targetedInvite(client, (w) => `${w.carol.id}\n`);
    const put = await client.request('PUT', `/api/v10/invites/${res.body.code}/target-users`, {
      raw: csvForm(`user_id\n${w.bob.id}\n`),
      token: w.botAuth,
    });
    expect(put.status).toBe(204);
    expect((await client.get(`/api/v10/invites/${res.body.code}/target-users`, w.botAuth)).body).toBe(
      `user_id\n${w.bob.id}\n`,
    );
    expect((await client.post(`/sandbox/invites/${res.body.code}/accept`, { user_id: w.carol.id })).body.code).toBe(
      10006,
    );
  });

  it('changing them needs the inviter or MANAGE_GUILD: VIEW_AUDIT_LOG only reads (50013), and nothing changes', async () => {
    const client = await createTestClient();
    const { w, res } = await targetedInvite(client, (w) => `${w.carol.id}\n`);
    const auditor = await otherBot(client, w.guild.id, PERMISSIONS.VIEW_AUDIT_LOG);
    const put = await client.request('PUT', `/api/v10/invites/${res.body.code}/target-users`, {
      raw: csvForm(`${w.bob.id}\n`),
      token: auditor.auth,
    });
    expect(put.body.code).toBe(50013);
    expect((await client.app.ctx.db.get('invites', res.body.code))!.target_user_ids).toEqual([w.carol.id]);
  });

  it('GET .../target-users/job-status answers the processed file as COMPLETED (2); an invite never given target users has no job (10124)', async () => {
    const client = await createTestClient();
    const { w, res } = await targetedInvite(client, (w) => `${w.carol.id}\n${w.bob.id}\n`);
    const job = await client.get(`/api/v10/invites/${res.body.code}/target-users/job-status`, w.botAuth);
    expect(job.body).toMatchObject({ status: 2, total_users: 2, processed_users: 2, error_message: null });
    expect(job.body.completed_at).toBe(job.body.created_at);
    const { code } = (await client.post(`/api/v10/channels/${w.text.id}/invites`, { unique: true }, w.botAuth)).body;
    expect((await client.get(`/api/v10/invites/${code}/target-users/job-status`, w.botAuth)).body.code).toBe(10124);
  });
});
