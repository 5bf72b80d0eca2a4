// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { uploadLimitFor } from '../../../src/platform/messages/attachments';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import {
  deny,
  expectError,
  expectInvalidField,
  messageCounts,
  messageWorld,
  multipart,
  sendForm,
  type MessageWorld,
} from './messages-fixtures';

const MiB = 1024 * 1024;
const at = (iso: string) => Date.parse(iso);

/** Fetches an attachment URL from the app, as a page would from the service worker. */
async function fetchFile(w: MessageWorld, url: string): Promise<Response> {
  return w.client.fetch(new Request(url));
}

describe('uploadLimitFor (spec Limits: 10 MiB, was 25 MiB, from 2025-01-16 for webhooks and interaction responses, per attachment)', () => {
  it('webhooks and interaction responses: 25 MiB before 2025-01-16, 10 MiB from it (platform clock)', () => {
    for (const context of ['webhook', 'interaction'] as const) {
      expect(uploadLimitFor({ context, now: at('2025-01-15T23:59:59.999Z') })).toBe(25 * MiB);
      expect(uploadLimitFor({ context, now: at('2025-01-16T00:00:00.000Z') })).toBe(10 * MiB);
    }
  });

  it("a message takes the user's upload limit in the channel: 10 MiB by default, raised by premium and by the guild's boost level", () => {
    const now = at('2026-01-01T00:00:00.000Z');
    expect(uploadLimitFor({ context: 'message', now: at('2024-12-01T00:00:00.000Z') })).toBe(10 * MiB);
    expect(uploadLimitFor({ context: 'message', now, premiumType: 2 })).toBe(500 * MiB);
    expect(uploadLimitFor({ context: 'message', now, premiumType: 3 })).toBe(50 * MiB);
    expect(uploadLimitFor({ context: 'message', now, boostTier: 1 })).toBe(10 * MiB);
    expect(uploadLimitFor({ context: 'message', now, boostTier: 2 })).toBe(50 * MiB);
    expect(uploadLimitFor({ context: 'interaction', now, boostTier: 3 })).toBe(100 * MiB);
    // A webhook has no invoking user: premium does not count.
    expect(uploadLimitFor({ context: 'webhook', now, premiumType: 2 })).toBe(10 * MiB);
    expect(uploadLimitFor({ context: 'interaction', now, premiumType: 2 })).toBe(500 * MiB);
  });
});

describe('multipart uploads: payload_json and files[n]', () => {
  it('stores each file and serves it back at its same-origin url, sandboxed; the attachment object has id, filename, size, content_type, url, proxy_url, flags', async () => {
    const w = await messageWorld();
    const reply = await sendForm(
      w.client,
      'POST',
      w.messages(),
      multipart({ content: 'see', attachments: [{ id: 0, description: 'a note' }] }, [
        { name: 'note.txt', content: 'hello', type: 'text/plain' },
      ]),
      w.botAuth,
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const [a] = reply.body.attachments;
    expect(a).toMatchObject({
      filename: 'note.txt',
      description: 'a note',
      size: 5,
      content_type: 'text/plain',
      flags: 0,
      url: `${w.client.origin}/attachments/${w.general.id}/${a.id}/note.txt`,
    });
    expect(a.proxy_url).toBe(a.url);
    const file = await fetchFile(w, a.url);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('hello');
    expect(file.headers.get('Content-Type')).toBe('text/plain');
    expect(file.headers.get('Content-Security-Policy')).toContain('sandbox');
    expect(file.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect((await fetchFile(w, a.url.replace('note.txt', 'other.txt'))).status).toBe(404);
    expect((await fetchFile(w, `${w.client.origin}/.proxy/attachments/${w.general.id}/${a.id}/note.txt`)).status).toBe(
      200,
    );
  });

  it('the limit is checked per attachment, not per message: a file over 10 MiB is 413 40005 with nothing stored; two 6 MiB files pass', async () => {
    const w = await messageWorld();
    const before = await messageCounts(w.client);
    const big = await sendForm(
      w.client,
      'POST',
      w.messages(),
      multipart({}, [{ name: 'big.bin', content: new Uint8Array(10 * MiB + 1) }]),
      w.botAuth,
    );
    expectError(big, 413, 40005);
    expect(await messageCounts(w.client)).toEqual(before);
    const exact = await sendForm(
      w.client,
      'POST',
      w.messages(),
      multipart({}, [{ name: 'ok.bin', content: new Uint8Array(10 * MiB) }]),
      w.botAuth,
    );
    expect(exact.status).toBe(200);
    const two = await sendForm(
      w.client,
      'POST',
      w.messages(),
      multipart({}, [
        { name: 'a.bin', content: new Uint8Array(6 * MiB) },
        { name: 'b.bin', content: new Uint8Array(6 * MiB) },
      ]),
      w.botAuth,
    );
    expect(two.status).toBe(200);
    expect(two.body.attachments.map((x: any) => x.size)).toEqual([6 * MiB, 6 * MiB]);
  });

  it("the user's limit in the channel: a Nitro user, or any member of a boost level 2 guild, may upload 11 MiB", async () => {
    const w = await messageWorld();
    const file = [{ name: 'big.bin', content: new Uint8Array(11 * MiB) }];
    expectError(await sendForm(w.client, 'POST', w.messages(), multipart({}, file), w.bobAuth), 413, 40005);
    await w.client.put(`/sandbox/guilds/${w.guild.id}/premium-tier`, { premium_tier: 2 });
    expect((await sendForm(w.client, 'POST', w.messages(), multipart({}, file), w.bobAuth)).status).toBe(200);
  });

  it('uploading needs ATTACH_FILES (403 50013); a request naming no file or attachment is 400 50035', async () => {
    const w = await messageWorld();
    const noFiles = await w.channel({ permission_overwrites: [deny(w.guild.id, PERMISSIONS.ATTACH_FILES)] });
    expectError(
      await sendForm(
        w.client,
        'POST',
        w.messages(noFiles.id),
        multipart({}, [{ name: 'a.txt', content: 'a' }]),
        w.botAuth,
      ),
      403,
      50013,
    );
    expectInvalidField(
      await sendForm(
        w.client,
        'POST',
        w.messages(),
        multipart({ content: 'x', attachments: [{ id: 3 }] }, [{ name: 'a.txt', content: 'a' }]),
        w.botAuth,
      ),
      'attachments.0.id',
    );
    expectError(
      await sendForm(
        w.client,
        'POST',
        w.messages(),
        (() => {
          const f = new FormData();
          f.set('payload_json', '{nope');
          return f;
        })(),
        w.botAuth,
      ),
      400,
      50109,
    );
  });
});

describe('spoilers (spec: is_spoiler marks a spoiler, flags IS_SPOILER; the SPOILER_ prefix still marks one, but not every spoiler has it)', () => {
  it('is_spoiler sets IS_SPOILER (1 << 3) without renaming the file; the legacy prefix sets it too; neither leaves flags 0', async () => {
    const w = await messageWorld();
    const reply = await sendForm(
      w.client,
      'POST',
      w.messages(),
      multipart({ attachments: [{ id: 0, is_spoiler: true }, { id: 1 }, { id: 2 }] }, [
        { name: 'secret.png', content: 's', type: 'image/png' },
        { name: 'SPOILER_old.png', content: 'o', type: 'image/png' },
        { name: 'plain.png', content: 'p', type: 'image/png' },
      ]),
      w.botAuth,
    );
    expect(reply.body.attachments.map((a: any) => [a.filename, a.flags])).toEqual([
      ['secret.png', 8],
      ['SPOILER_old.png', 8],
      ['plain.png', 0],
    ]);
  });
});

describe('editing attachments (spec: description and is_spoiler are editable on existing attachments)', () => {
  it('kept attachments take a new description and is_spoiler; attachments left out are removed with their file; new files are added', async () => {
    const w = await messageWorld();
    const created = (
      await sendForm(
        w.client,
        'POST',
        w.messages(),
        multipart({ content: 'files' }, [
          { name: 'a.txt', content: 'a' },
          { name: 'b.txt', content: 'b' },
        ]),
        w.botAuth,
      )
    ).body;
    const [a, b] = created.attachments;
    const path = `${w.messages()}/${created.id}`;
    const edited = await sendForm(
      w.client,
      'PATCH',
      path,
      multipart({ attachments: [{ id: a.id, description: 'alt text', is_spoiler: true }, { id: 0 }] }, [
        { name: 'c.txt', content: 'c' },
      ]),
      w.botAuth,
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.attachments.map((x: any) => [x.filename, x.description ?? null, x.flags])).toEqual([
      ['a.txt', 'alt text', 8],
      ['c.txt', null, 0],
    ]);
    expect((await fetchFile(w, b.url)).status).toBe(404);
    expect(await (await fetchFile(w, edited.body.attachments[1].url)).text()).toBe('c');
    // JSON edit: un-spoiler it again.
    const json = await w.client.patch(
      path,
      { attachments: [{ id: a.id, is_spoiler: false }, { id: edited.body.attachments[1].id }] },
      w.botAuth,
    );
    expect(json.body.attachments.map((x: any) => x.flags)).toEqual([0, 0]);
    expect(await w.client.db.count('attachment_files')).toBe(2);
  });

  it('deleting the message deletes its files', async () => {
    const w = await messageWorld();
    const created = (
      await sendForm(w.client, 'POST', w.messages(), multipart({}, [{ name: 'a.txt', content: 'a' }]), w.botAuth)
    ).body;
    expect((await w.client.delete(`${w.messages()}/${created.id}`, w.botAuth)).status).toBe(204);
    expect((await fetchFile(w, created.attachments[0].url)).status).toBe(404);
    expect(await w.client.db.count('attachment_files')).toBe(0);
  });
});
