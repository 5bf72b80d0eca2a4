// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { expectError, expectInvalidField } from './messages-fixtures';
import { freeze, interactionWorld, invoked, type InteractionWorld } from './interactions-fixtures';

const MiB = 1024 * 1024;
const label = (text: string, component: Record<string, unknown>) => ({ type: 18, label: text, component });
const textInput = (custom_id: string, extra: Record<string, unknown> = {}) => ({
  type: 4,
  custom_id,
  style: 1,
  ...extra,
});
const options = (...values: string[]) => values.map((v) => ({ label: v.toUpperCase(), value: v }));

/** Opens a modal for alice and answers the reply of the callback. */
async function openModal(w: InteractionWorld, components: unknown[], custom_id = 'form') {
  const interaction = await invoked(w);
  return {
    interaction,
    reply: await w.callback(interaction, { type: 9, data: { custom_id, title: 'Form', components } }),
  };
}

describe('modals (callback 9): what they may contain', () => {
  it('a modal holds Labels (with a Text Input, selects, File Upload, Radio Group, Checkbox Group or Checkbox) and Text Displays', async () => {
    const w = await interactionWorld();
    const { reply } = await openModal(w, [
      { type: 10, content: 'Tell us' },
      label('Name', textInput('name')),
      label('Class', { type: 21, custom_id: 'class', options: options('warrior', 'rogue') }),
      label('Days', {
        type: 22,
        custom_id: 'days',
        options: options('mon', 'tue', 'wed'),
        min_values: 1,
        max_values: 2,
      }),
      label('Agree', { type: 23, custom_id: 'agree' }),
    ]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(204);
    const more = await openModal(w, [
      label('Pick', { type: 3, custom_id: 'pick', options: options('a', 'b') }),
      label('Who', { type: 5, custom_id: 'who' }),
      label('Proof', { type: 19, custom_id: 'proof', min_values: 0, max_values: 10, required: false }),
    ]);
    expect(more.reply.status, JSON.stringify(more.reply.body)).toBe(204);
  });

  it('Radio Group, Checkbox Group, Checkbox (and every input) must be inside a Label (400 50035)', async () => {
    const w = await interactionWorld();
    for (const bare of [
      { type: 21, custom_id: 'r', options: options('a', 'b') },
      { type: 22, custom_id: 'c', options: options('a') },
      { type: 23, custom_id: 'x' },
    ]) {
      expectInvalidField((await openModal(w, [bare])).reply, 'data.components.0.type');
    }
  });

  it('Radio Group, Checkbox Group and Checkbox exist only in modals: a message with them is refused', async () => {
    const w = await interactionWorld();
    const row = { type: 1, components: [{ type: 23, custom_id: 'x' }] };
    expect(
      (await w.client.post(`/api/v10/channels/${w.general.id}/messages`, { components: [row] }, w.botAuth)).status,
    ).toBe(400);
    expect(
      (
        await w.client.post(
          `/api/v10/channels/${w.general.id}/messages`,
          { flags: 1 << 15, components: [label('L', { type: 21, custom_id: 'r', options: options('a', 'b') })] },
          w.botAuth,
        )
      ).status,
    ).toBe(400);
  });

  it('a Text Input inside a Label has no label of its own (400 50035 naming it)', async () => {
    const w = await interactionWorld();
    expectInvalidField(
      (await openModal(w, [label('Name', textInput('name', { label: 'Name' }))])).reply,
      'data.components.0.component.label',
    );
  });

  it('ActionRow plus TextInput (deprecated) is still accepted, with the Text Input label', async () => {
    const w = await interactionWorld();
    expect((await openModal(w, [{ type: 1, components: [textInput('name', { label: 'Name' })] }])).reply.status).toBe(
      204,
    );
    expectInvalidField(
      (await openModal(w, [{ type: 1, components: [textInput('name')] }])).reply,
      'data.components.0.components.0.label',
    );
  });

  it('disabled on a string select in a modal is an error; its required defaults to true in a modal', async () => {
    const w = await interactionWorld();
    expectInvalidField(
      (await openModal(w, [label('Pick', { type: 3, custom_id: 'pick', options: options('a', 'b'), disabled: true })]))
        .reply,
      'data.components.0.component.disabled',
    );
    const { interaction } = await openModal(w, [
      label('Pick', { type: 3, custom_id: 'pick', options: options('a', 'b') }),
    ]);
    const stored = (await w.client.get(`/sandbox/interactions/${interaction.id}`)).body;
    expect(stored.modal.components[0].component.required).toBe(true);
    expectInvalidField(await w.interact({ type: 5, data: { custom_id: 'form', values: {} } }), 'data.values.pick');
  });

  it("a modal submit's values are a dictionary by custom_id: an array is 400 50035 naming data.values", async () => {
    const w = await interactionWorld();
    await openModal(w, [label('Name', textInput('name'))]);
    expectInvalidField(await w.interact({ type: 5, data: { custom_id: 'form', values: ['Ada'] } }), 'data.values');
    expect((await w.interact({ type: 5, data: { custom_id: 'form', values: { name: 'Ada' } } })).status).toBe(201);
  });

  it('string select required is ignored in messages (not stored)', async () => {
    const w = await interactionWorld();
    const row = { type: 1, components: [{ type: 3, custom_id: 'pick', required: false, options: options('a') }] };
    const sent = await w.client.post(`/api/v10/channels/${w.general.id}/messages`, { components: [row] }, w.botAuth);
    expect(sent.status).toBe(200);
    expect(sent.body.components[0].components[0].required).toBeUndefined();
  });

  it('File Upload: min and max file counts between 0 and 10 (11 is 400); min_values 0 needs required false', async () => {
    const w = await interactionWorld();
    expectInvalidField(
      (await openModal(w, [label('F', { type: 19, custom_id: 'f', max_values: 11 })])).reply,
      'data.components.0.component.max_values',
    );
    expectInvalidField(
      (await openModal(w, [label('F', { type: 19, custom_id: 'f', min_values: -1 })])).reply,
      'data.components.0.component.min_values',
    );
    expectInvalidField(
      (await openModal(w, [label('F', { type: 19, custom_id: 'f', min_values: 0 })])).reply,
      'data.components.0.component.required',
    );
    expect(
      (await openModal(w, [label('F', { type: 19, custom_id: 'f', min_values: 0, max_values: 10, required: false })]))
        .reply.status,
    ).toBe(204);
  });

  it('Checkbox Group: min_values and max_values (within its options); a modal holds 1 to 5 components and a title of up to 45 characters', async () => {
    const w = await interactionWorld();
    expectInvalidField(
      (await openModal(w, [label('D', { type: 22, custom_id: 'd', options: options('a', 'b'), max_values: 3 })])).reply,
      'data.components.0.component.max_values',
    );
    expectInvalidField(
      (
        await openModal(w, [
          label('D', { type: 22, custom_id: 'd', options: options('a', 'b'), min_values: 2, max_values: 1 }),
        ])
      ).reply,
      'data.components.0.component.min_values',
    );
    expectInvalidField(
      (
        await openModal(
          w,
          Array.from({ length: 6 }, (_, i) => label(`L${i}`, textInput(`t${i}`))),
        )
      ).reply,
      'data.components',
    );
    const interaction = await invoked(w);
    expectInvalidField(
      await w.callback(interaction, {
        type: 9,
        data: { custom_id: 'x', title: 't'.repeat(46), components: [label('N', textInput('n'))] },
      }),
      'data.title',
    );
  });

  it('MODAL is not an answer to a modal submit', async () => {
    const w = await interactionWorld();
    await openModal(w, [label('Name', textInput('name'))]);
    const submit = await invoked(w, { type: 5, data: { custom_id: 'form', values: { name: 'Al' } } });
    expectInvalidField(
      await w.callback(submit, {
        type: 9,
        data: { custom_id: 'again', title: 'Again', components: [label('N', textInput('n'))] },
      }),
      'type',
    );
  });
});

describe('MODAL_SUBMIT via the sandbox: the submitted values', () => {
  it('carries the values in the platform shape (Label component value / values), checked against the modal, once', async () => {
    const w = await interactionWorld();
    await openModal(w, [
      { type: 10, content: 'Tell us' },
      label('Name', textInput('name', { min_length: 2 })),
      label('Class', { type: 21, custom_id: 'class', options: options('warrior', 'rogue') }),
      label('Days', { type: 22, custom_id: 'days', options: options('mon', 'tue'), min_values: 1, max_values: 2 }),
      label('Agree', { type: 23, custom_id: 'agree' }),
    ]);
    expectInvalidField(
      await w.interact({ type: 5, data: { custom_id: 'form', values: { name: 'A', class: 'rogue', days: ['mon'] } } }),
      'data.values.name',
    );
    expectInvalidField(
      await w.interact({ type: 5, data: { custom_id: 'form', values: { name: 'Al', class: 'bard', days: ['mon'] } } }),
      'data.values.class',
    );
    const submit = await invoked(w, {
      type: 5,
      data: { custom_id: 'form', values: { name: 'Al', class: 'rogue', days: ['tue', 'mon'], agree: true } },
    });
    expect(submit.data).toEqual({
      custom_id: 'form',
      components: [
        { type: 10, id: 1 },
        { type: 18, id: 2, component: { type: 4, id: 3, custom_id: 'name', value: 'Al' } },
        { type: 18, id: 4, component: { type: 21, id: 5, custom_id: 'class', value: 'rogue' } },
        { type: 18, id: 6, component: { type: 22, id: 7, custom_id: 'days', values: ['tue', 'mon'] } },
        { type: 18, id: 8, component: { type: 23, id: 9, custom_id: 'agree', value: true } },
      ],
    });
    expectInvalidField(
      await w.interact({ type: 5, data: { custom_id: 'form', values: { name: 'Al', class: 'rogue', days: ['mon'] } } }),
      'data.custom_id',
    );
  });

  it('File Upload: files bound by the user upload limit in that channel (413 above) and the component file_types', async () => {
    const w = await interactionWorld();
    await freeze(w.client, '2025-06-01T00:00:00.000Z');
    const upload = label('Proof', {
      type: 19,
      custom_id: 'proof',
      min_values: 1,
      max_values: 2,
      file_types: ['image/*'],
    });
    await openModal(w, [upload]);
    const png = { filename: 'p.png', content_type: 'image/png', data: btoa('img') };
    expectInvalidField(
      await w.interact({
        type: 5,
        data: { custom_id: 'form', values: { proof: [{ filename: 'a.txt', data: btoa('x') }] } },
      }),
      'data.values.proof.0',
    );
    const big = { filename: 'big.png', content_type: 'image/png', data: Buffer.alloc(10 * MiB + 1).toString('base64') };
    expectError(await w.interact({ type: 5, data: { custom_id: 'form', values: { proof: [big] } } }), 413, 40005);
    expectInvalidField(
      await w.interact({ type: 5, data: { custom_id: 'form', values: { proof: [png, png, png] } } }),
      'data.values.proof',
    );
    const submit = await invoked(w, { type: 5, data: { custom_id: 'form', values: { proof: [png] } } });
    const [id] = submit.data.components[0].component.values;
    expect(submit.data.resolved.attachments[id]).toMatchObject({ filename: 'p.png', size: 3 });
    // A boosted guild (level 2) raises the user's limit in it.
    await w.client.put(`/sandbox/guilds/${w.guild.id}/premium-tier`, { premium_tier: 2 });
    await openModal(w, [upload]);
    expect((await w.interact({ type: 5, data: { custom_id: 'form', values: { proof: [big] } } })).status).toBe(201);
  });
});
