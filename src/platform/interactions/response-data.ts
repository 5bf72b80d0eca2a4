/**
 * The `data` of each interaction callback type, checked before anything is claimed: a message
 * (4: the create body with the interaction flags; 7: the edit body), a deferral (5: only the
 * EPHEMERAL flag), autocomplete choices (8: up to 25), a modal (9: `modals.ts`); the deprecated
 * PREMIUM_REQUIRED (10) needs an app that sells SKUs, LAUNCH_ACTIVITY (12) an app with the
 * EMBEDDED flag. Premium buttons (style 6) in a message must name an available SKU of the app.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { flagsInt } from '../core/schema-parts';
import { invalidFormFromIssuesPrefixed } from './validation';
import { COMPONENT_TYPES } from './components';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { INTERACTION_MESSAGE_FLAGS } from './messages';
import { CALLBACK_TYPES, type InteractionRecord, type StoredModal } from '../../store/records/interactions';
import { AUTOCOMPLETE_CHOICES_MAX, COMMAND_CHOICE_TEXT_MAX } from '../core/limits';
import { CHANNEL_MESSAGE_FLAGS } from '../../store/records/messages';
import {
  MessageCreateSchema,
  MessageEditSchema,
  type MessageCreateInput,
  type MessageEditInput,
} from '../messages/schemas';
import { checkFlags } from '../messages/shape';
import { checkModal } from './modals';
import { premiumButtonSkuProblem } from '../monetization/premium-button';
import { SKU_FLAGS } from '../../store/records/monetization';
import { APPLICATION_FLAGS } from '../../store/records/core';

/** A callback's data once checked. */
export interface CheckedResponse {
  create?: MessageCreateInput;
  edit?: MessageEditInput;
  flags?: number;
  modal?: StoredModal;
  choices?: unknown[];
}

const DeferSchema = jsonObject({ flags: v.optional(flagsInt()) });
const ChoicesSchema = jsonObject({
  choices: v.pipe(
    v.array(
      jsonObject({
        name: v.pipe(v.string(), v.minLength(1), v.maxLength(COMMAND_CHOICE_TEXT_MAX)),
        value: v.union([v.pipe(v.string(), v.maxLength(COMMAND_CHOICE_TEXT_MAX)), v.number()]),
      }),
    ),
    v.maxLength(AUTOCOMPLETE_CHOICES_MAX, `Must be ${AUTOCOMPLETE_CHOICES_MAX} or fewer in length.`),
  ),
});

function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input ?? {});
  if (!result.success) throw invalidFormFromIssuesPrefixed(result.issues, 'data');
  return result.output;
}

/**
 * Throws 400 50035 naming the `sku_id` of each premium button (style 6) whose SKU the app
 * cannot sell: the premium button that replaces the deprecated PREMIUM_REQUIRED callback.
 */
export async function checkPremiumButtons(
  ctx: PlatformContext,
  applicationId: string,
  components: readonly unknown[] | null | undefined,
  prefix: string,
): Promise<void> {
  const found: { sku: string; path: string }[] = [];
  const walk = (list: readonly unknown[], path: string) =>
    list.forEach((raw, i) => {
      const node = raw as Record<string, unknown>;
      const at = `${path}.${i}`;
      if (node.type === COMPONENT_TYPES.BUTTON && node.style === 6 && typeof node.sku_id === 'string')
        found.push({ sku: node.sku_id, path: `${at}.sku_id` });
      if (Array.isArray(node.components)) walk(node.components, `${at}.components`);
      const accessory = node.accessory as Record<string, unknown> | undefined;
      if (accessory?.type === COMPONENT_TYPES.BUTTON && accessory.style === 6 && typeof accessory.sku_id === 'string')
        found.push({ sku: accessory.sku_id, path: `${at}.accessory.sku_id` });
    });
  walk(components ?? [], `${prefix}components`);
  for (const { sku, path } of found) {
    const problem = await premiumButtonSkuProblem(ctx, applicationId, sku);
    if (problem) throw ApiError.invalidForm({ [path]: problem });
  }
}

/** Checks the callback's data for its type (the type already fits the interaction). */
export async function checkResponseData(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  body: { type: number; data?: unknown },
): Promise<CheckedResponse> {
  switch (body.type) {
    case CALLBACK_TYPES.CHANNEL_MESSAGE_WITH_SOURCE: {
      const create = parse(MessageCreateSchema, body.data);
      checkFlags(create.flags ?? 0, INTERACTION_MESSAGE_FLAGS);
      await checkPremiumButtons(ctx, interaction.application_id, create.components, 'data.');
      return { create, flags: create.flags ?? 0 };
    }
    case CALLBACK_TYPES.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: {
      // Only EPHEMERAL: a V2 message is made by editing the original response.
      const { flags = 0 } = parse(DeferSchema, body.data);
      if ((flags & ~CHANNEL_MESSAGE_FLAGS.EPHEMERAL) !== 0)
        throw ApiError.invalidForm({
          'data.flags': { code: 'MESSAGE_FLAGS_INVALID', message: 'A deferred response may only set EPHEMERAL.' },
        });
      return { flags };
    }
    case CALLBACK_TYPES.UPDATE_MESSAGE: {
      const edit = parse(MessageEditSchema, body.data);
      await checkPremiumButtons(ctx, interaction.application_id, edit.components, 'data.');
      return { edit };
    }
    case CALLBACK_TYPES.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT:
      return { choices: parse(ChoicesSchema, body.data).choices };
    case CALLBACK_TYPES.MODAL:
      return { modal: checkModal(body.data) };
    case CALLBACK_TYPES.PREMIUM_REQUIRED: {
      const skus = await ctx.db.getAllFromIndex('skus', 'by_application', interaction.application_id);
      if (!skus.some((s) => (s.flags & SKU_FLAGS.AVAILABLE) !== 0)) {
        throw ApiError.invalidForm({
          type: {
            code: 'APPLICATION_NOT_MONETIZED',
            message:
              'PREMIUM_REQUIRED (deprecated) is only for apps that sell SKUs: prefer a premium button with the sku_id.',
          },
        });
      }
      return {};
    }
    case CALLBACK_TYPES.LAUNCH_ACTIVITY: {
      const application = await ctx.db.get('applications', interaction.application_id);
      if (!application || (BigInt(application.flags) & BigInt(APPLICATION_FLAGS.EMBEDDED)) === 0n) {
        throw ApiError.invalidForm({
          type: {
            code: 'APPLICATION_NOT_EMBEDDED',
            message: 'LAUNCH_ACTIVITY is only for apps with Activities (the EMBEDDED flag).',
          },
        });
      }
      return {};
    }
    default:
      return {};
  }
}
