// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { BUTTON_STYLES, COMPONENT_TYPES } from '../../../src/platform/interactions/components';
import { CHANNEL_MESSAGE_FLAGS } from '../../../src/store/records/messages';
import { expectError, expectInvalidField, messageCounts, messageWorld, multipart, sendForm } from './messages-fixtures';

const V2 = CHANNEL_MESSAGE_FLAGS.IS_COMPONENTS_V2;
const text = (content: string) => ({ type: COMPONENT_TYPES.TEXT_DISPLAY, content });
const button = (custom_id: string) => ({
  type: COMPONENT_TYPES.BUTTON,
  style: BUTTON_STYLES.PRIMARY,
  label: 'Go',
  custom_id,
});
const row = (...components: unknown[]) => ({ type: COMPONENT_TYPES.ACTION_ROW, components });

describe('IS_COMPONENTS_V2 = 1 << 15 (spec: content and embeds do not work; poll and stickers disabled)', () => {
  it('a V2 message of components is created and answered with its flag, ids assigned', async () => {
    const w = await messageWorld();
    const reply = await w.client.post(
      w.messages(),
      {
        flags: V2,
        components: [
          {
            type: COMPONENT_TYPES.CONTAINER,
            accent_color: 0xff0000,
            components: [text('Hello'), { type: COMPONENT_TYPES.SEPARATOR }, row(button('ok'))],
          },
        ],
      },
      w.botAuth,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.flags).toBe(V2);
    expect(reply.body.content).toBe('');
    expect(reply.body.components[0]).toMatchObject({
      type: 17,
      id: 1,
      accent_color: 0xff0000,
      components: [
        { type: 10, id: 2 },
        { type: 14, id: 3 },
        { type: 1, id: 4, components: [{ id: 5, custom_id: 'ok' }] },
      ],
    });
  });

  it('with the flag, content, embeds, sticker_ids and poll are each refused with 400 50035 naming the field; nothing is stored', async () => {
    const w = await messageWorld();
    const components = [text('x')];
    const poll = { question: { text: 'Q?' }, answers: [{ poll_media: { text: 'A' } }] };
    const before = await messageCounts(w.client);
    expectInvalidField(
      await w.client.post(w.messages(), { flags: V2, components, content: 'hi' }, w.botAuth),
      'content',
    );
    expectInvalidField(
      await w.client.post(w.messages(), { flags: V2, components, embeds: [{ title: 't' }] }, w.botAuth),
      'embeds',
    );
    expectInvalidField(
      await w.client.post(w.messages(), { flags: V2, components, sticker_ids: ['1'] }, w.botAuth),
      'sticker_ids',
    );
    expectInvalidField(await w.client.post(w.messages(), { flags: V2, components, poll }, w.botAuth), 'poll');
    expect(await messageCounts(w.client)).toEqual(before);
    // Without the flag the same content, embeds and poll are fine.
    expect(
      (await w.client.post(w.messages(), { content: 'hi', embeds: [{ title: 't' }], poll }, w.botAuth)).status,
    ).toBe(200);
  });

  it('with the flag at most 40 components in total (nested ones count); without it V2 components are refused and at most 5 action rows', async () => {
    const w = await messageWorld();
    const container = (n: number) => ({
      type: COMPONENT_TYPES.CONTAINER,
      components: Array.from({ length: n }, (_, i) => text(`t${i}`)),
    });
    expect((await w.client.post(w.messages(), { flags: V2, components: [container(39)] }, w.botAuth)).status).toBe(200);
    expectInvalidField(
      await w.client.post(w.messages(), { flags: V2, components: [container(40)] }, w.botAuth),
      'components',
    );
    expectInvalidField(await w.client.post(w.messages(), { components: [text('x')] }, w.botAuth), 'components.0.type');
    const rows = (n: number) => Array.from({ length: n }, (_, i) => row(button(`b${i}`)));
    expect((await w.client.post(w.messages(), { components: rows(5) }, w.botAuth)).status).toBe(200);
    expectInvalidField(await w.client.post(w.messages(), { components: rows(6) }, w.botAuth), 'components');
    expect((await w.client.post(w.messages(), { flags: V2, components: rows(6) }, w.botAuth)).status).toBe(200);
  });

  it('a premium button carries a sku_id (no custom_id, label, url); other flags than the four the route allows are refused', async () => {
    const w = await messageWorld();
    const premium = await w.client.post(
      w.messages(),
      { components: [row({ type: 2, style: BUTTON_STYLES.PREMIUM, sku_id: '1234' })] },
      w.botAuth,
    );
    expect(premium.body.components[0].components[0]).toEqual({ type: 2, id: 2, style: 6, sku_id: '1234' });
    expectInvalidField(
      await w.client.post(
        w.messages(),
        { components: [row({ type: 2, style: 6, sku_id: '1', custom_id: 'buy' })] },
        w.botAuth,
      ),
      'components.0.components.0.custom_id',
    );
    expectInvalidField(
      await w.client.post(w.messages(), { content: 'x', flags: CHANNEL_MESSAGE_FLAGS.EPHEMERAL }, w.botAuth),
      'flags',
    );
  });

  it('with the flag, attachments are visible only through a Media Gallery, Thumbnail or File component', async () => {
    const w = await messageWorld();
    const payload = {
      flags: V2,
      components: [
        { type: COMPONENT_TYPES.MEDIA_GALLERY, items: [{ media: { url: 'attachment://shown.png' } }] },
        { type: COMPONENT_TYPES.FILE, file: { url: 'attachment://notes.txt' } },
      ],
    };
    const files = [
      { name: 'shown.png', content: 'png', type: 'image/png' },
      { name: 'notes.txt', content: 'n' },
      { name: 'hidden.png', content: 'h', type: 'image/png' },
    ];
    const reply = await sendForm(w.client, 'POST', w.messages(), multipart(payload, files), w.botAuth);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.attachments.map((a: any) => a.filename).sort()).toEqual(['notes.txt', 'shown.png']);
    const shown = reply.body.attachments.find((a: any) => a.filename === 'shown.png');
    expect(reply.body.components[0].items[0].media).toEqual({
      id: shown.id,
      url: shown.url,
      proxy_url: shown.url,
      content_type: 'image/png',
      attachment_id: shown.id,
    });
    expect(reply.body.components[1].file).toMatchObject({
      attachment_id: expect.any(String),
      url: expect.stringContaining('/notes.txt'),
    });
    // The same files without the flag: every attachment shows.
    const legacy = await sendForm(w.client, 'POST', w.messages(), multipart({ content: 'files' }, files), w.botAuth);
    expect(legacy.body.attachments).toHaveLength(3);
  });

  it('a component naming an attachment the message does not have is 400 50035', async () => {
    const w = await messageWorld();
    const reply = await w.client.post(
      w.messages(),
      { flags: V2, components: [{ type: COMPONENT_TYPES.FILE, file: { url: 'attachment://missing.txt' } }] },
      w.botAuth,
    );
    expectInvalidField(reply, 'components.0.file.url');
    expectError(await w.client.post(w.messages(), { flags: V2 }, w.botAuth), 400, 50006);
  });
});
