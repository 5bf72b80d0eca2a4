// @vitest-environment node
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  BUTTON_STYLES,
  COMPONENT_TYPES,
  ContainerSchema,
  MessageComponentsSchema,
  StringSelectSchema,
} from '../../../../src/platform/interactions/components';
import {
  checkMessageComponents,
  exposedAttachmentNames,
  resolveComponentMedia,
} from '../../../../src/platform/interactions/component-rules';
import { ApiError } from '../../../../src/platform/core/errors';
import type { AttachmentMeta } from '../../../../src/store/records/messages';

const text = (content = 'hi') => ({ type: COMPONENT_TYPES.TEXT_DISPLAY, content });
const button = (custom_id: string) => ({
  type: COMPONENT_TYPES.BUTTON,
  style: BUTTON_STYLES.PRIMARY,
  label: 'Go',
  custom_id,
});
const row = (...components: unknown[]) => ({ type: COMPONENT_TYPES.ACTION_ROW, components });

/** The dotted paths valibot names for `input`, or [] when it is valid. */
function issuePaths(input: unknown): string[] {
  const result = v.safeParse(MessageComponentsSchema, input);
  return result.success ? [] : result.issues.map((i) => v.getDotPath(i) ?? '');
}

/** The field paths of the 400 50035 `checkMessageComponents` throws. */
function ruleErrors(components: unknown[], componentsV2: boolean, attachments: AttachmentMeta[] = []): string[] {
  try {
    checkMessageComponents(v.parse(MessageComponentsSchema, components), { componentsV2, attachments });
    return [];
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const paths: string[] = [];
    const visit = (node: Record<string, any>, at: string) => {
      if (node._errors) paths.push(at);
      for (const [k, child] of Object.entries(node)) if (k !== '_errors') visit(child, at ? `${at}.${k}` : k);
    };
    visit(error.errors ?? {}, '');
    return paths;
  }
}

const attachment = (filename: string): AttachmentMeta => ({
  id: `9${filename.length}`,
  filename,
  content_type: 'image/png',
  size: 1,
  url: `/attachments/1/9/${filename}`,
  is_spoiler: false,
});

describe('component schemas (public component reference)', () => {
  it('accepts the V2 layout and content components: Section with a Thumbnail accessory, Container with accent_color, Separator, Text Display, Media Gallery, File', () => {
    const components = [
      {
        type: COMPONENT_TYPES.SECTION,
        components: [text('a'), text('b')],
        accessory: { type: COMPONENT_TYPES.THUMBNAIL, media: { url: 'https://x.test/a.png' } },
      },
      {
        type: COMPONENT_TYPES.CONTAINER,
        accent_color: 0x5865f2,
        components: [text(), { type: COMPONENT_TYPES.SEPARATOR, divider: true, spacing: 2 }, row(button('a'))],
      },
      { type: COMPONENT_TYPES.MEDIA_GALLERY, items: [{ media: { url: 'attachment://cat.png' }, description: 'cat' }] },
      { type: COMPONENT_TYPES.FILE, file: { url: 'attachment://notes.txt' } },
    ];
    expect(issuePaths(components)).toEqual([]);
  });

  it('a Section has 1 to 3 Text Displays and a Thumbnail or Button accessory; a Container accent_color is a 24-bit color', () => {
    expect(issuePaths([{ type: 9, components: [text(), text(), text(), text()], accessory: button('a') }])).toEqual([
      '0.components',
    ]);
    expect(issuePaths([{ type: 9, components: [text()], accessory: text() }])).toEqual(['0.accessory.type']);
    expect(v.safeParse(ContainerSchema, { type: 17, components: [text()], accent_color: 0x1000000 }).success).toBe(
      false,
    );
    expect(v.safeParse(ContainerSchema, { type: 17, components: [text()], accent_color: null }).success).toBe(true);
  });

  it('buttons: a premium button carries a sku_id and no custom_id, label, url or emoji; a link needs url; others need custom_id', () => {
    const premium = { type: 2, style: BUTTON_STYLES.PREMIUM, sku_id: '123' };
    expect(issuePaths([row(premium)])).toEqual([]);
    expect(issuePaths([row({ ...premium, sku_id: undefined })])).toEqual(['0.components.0.sku_id']);
    expect(issuePaths([row({ ...premium, custom_id: 'x', label: 'Buy' })])).toEqual([
      '0.components.0.custom_id',
      '0.components.0.label',
    ]);
    expect(issuePaths([row({ type: 2, style: BUTTON_STYLES.LINK, label: 'Open' })])).toEqual(['0.components.0.url']);
    expect(
      issuePaths([row({ type: 2, style: BUTTON_STYLES.LINK, label: 'Open', url: 'https://x.test', custom_id: 'c' })]),
    ).toEqual(['0.components.0.custom_id']);
    expect(issuePaths([row({ type: 2, style: BUTTON_STYLES.DANGER, label: 'No' })])).toEqual([
      '0.components.0.custom_id',
    ]);
    expect(
      issuePaths([row({ type: 2, style: BUTTON_STYLES.DANGER, label: 'No', custom_id: 'n', sku_id: '1' })]),
    ).toEqual(['0.components.0.sku_id']);
  });

  it('an Action Row holds up to 5 buttons or a single select; selects have 1 to 25 options', () => {
    const select = { type: 3, custom_id: 's', options: [{ label: 'A', value: 'a' }] };
    expect(issuePaths([row(...['a', 'b', 'c', 'd', 'e'].map(button))])).toEqual([]);
    expect(issuePaths([row(...['a', 'b', 'c', 'd', 'e', 'f'].map(button))])).toEqual(['0.components']);
    expect(issuePaths([row(select, button('b'))])).toEqual(['0']);
    expect(issuePaths([row({ ...select, options: [] })])).toEqual(['0.components.0.options']);
    expect(issuePaths([row({ type: 5, custom_id: 'u', default_values: [{ id: '1', type: 'user' }] })])).toEqual([]);
    expect(
      v.safeParse(StringSelectSchema, {
        ...select,
        options: Array.from({ length: 26 }, (_, i) => ({ label: `${i}`, value: `${i}` })),
      }).success,
    ).toBe(false);
  });

  it('a File component only references attachments; media urls are http(s) or attachment://', () => {
    expect(issuePaths([{ type: 13, file: { url: 'https://x.test/a.txt' } }])).toEqual(['0.file.url']);
    expect(issuePaths([{ type: 12, items: [{ media: { url: 'javascript:alert(1)' } }] }])).toEqual([
      '0.items.0.media.url',
    ]);
  });
});

describe('message-wide component rules', () => {
  it('legacy messages (no IS_COMPONENTS_V2): only Action Rows, at most 5', () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => row(button(`b${i}`)));
    expect(ruleErrors(rows(5), false)).toEqual([]);
    expect(ruleErrors(rows(6), false)).toEqual(['components']);
    expect(ruleErrors([text()], false)).toEqual(['components.0.type']);
    // With the flag, the top level itself has no limit.
    expect(ruleErrors(rows(6), true)).toEqual([]);
  });

  it('IS_COMPONENTS_V2: at most 40 components in total, nested ones counted, none limited inside a Container', () => {
    // 1 container + 39 text displays = 40.
    const container = (n: number) => ({ type: 17, components: Array.from({ length: n }, () => text()) });
    expect(ruleErrors([container(39)], true)).toEqual([]);
    expect(ruleErrors([container(40)], true)).toEqual(['components']);
    // 20 rows of 1 button = 40; one more button makes 41.
    const rows = Array.from({ length: 20 }, (_, i) => row(button(`b${i}`)));
    expect(ruleErrors(rows, true)).toEqual([]);
    expect(ruleErrors([...rows.slice(0, 19), row(button('x'), button('y'))], true)).toEqual(['components']);
  });

  it('custom_id and id are unique in the message; missing ids are numbered in document order, skipping ids in use', () => {
    expect(ruleErrors([row(button('a')), row(button('a'))], false)).toEqual(['components.1.components.0.custom_id']);
    expect(
      ruleErrors(
        [
          { type: 10, id: 7, content: 'a' },
          { type: 10, id: 7, content: 'b' },
        ],
        true,
      ),
    ).toEqual(['components.1.id']);
    const stored = checkMessageComponents(
      v.parse(MessageComponentsSchema, [
        row(button('a')),
        { type: 10, id: 2, content: 'x' },
        { type: 10, id: 0, content: 'y' },
      ]),
      { componentsV2: true, attachments: [] },
    );
    expect([stored[0].id, (stored[0].components as any)[0].id, stored[1].id, stored[2].id]).toEqual([1, 3, 2, 4]);
  });

  it('min_values is not above max_values nor max_values above the options; `required` (modal-only) is dropped in messages', () => {
    const select = {
      type: 3,
      custom_id: 's',
      options: [
        { label: 'A', value: 'a' },
        { label: 'B', value: 'b' },
      ],
      required: false,
    };
    expect(ruleErrors([row({ ...select, min_values: 2, max_values: 1 })], false)).toEqual([
      'components.0.components.0.min_values',
    ]);
    expect(ruleErrors([row({ ...select, max_values: 3 })], false)).toEqual(['components.0.components.0.max_values']);
    const [stored] = checkMessageComponents(v.parse(MessageComponentsSchema, [row(select)]), {
      componentsV2: false,
      attachments: [],
    });
    expect((stored.components as any)[0]).not.toHaveProperty('required');
  });

  it('attachment:// media must name one of the message attachments; only those are exposed, and they resolve to the attachment', () => {
    const gallery = { type: 12, items: [{ media: { url: 'attachment://cat.png' } }] };
    expect(ruleErrors([gallery], true)).toEqual(['components.0.items.0.media.url']);
    const cat = attachment('cat.png');
    const stored = checkMessageComponents(v.parse(MessageComponentsSchema, [gallery]), {
      componentsV2: true,
      attachments: [cat, attachment('dog.png')],
    });
    expect([...exposedAttachmentNames(stored)]).toEqual(['cat.png']);
    const [resolved] = resolveComponentMedia(stored, [cat]);
    expect((resolved.items as any)[0].media).toEqual({
      url: cat.url,
      proxy_url: cat.url,
      content_type: 'image/png',
      attachment_id: cat.id,
    });
  });
});
