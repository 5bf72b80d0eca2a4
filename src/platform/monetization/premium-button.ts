/**
 * The premium button: how an app asks a user to buy something now that the interaction callback
 * PREMIUM_REQUIRED (10) is deprecated (spec: in favor of a premium button style carrying a
 * sku_id). For the interactions and message components code: validate a button of style 6 with
 * {@link PremiumButtonSchema} where components are validated, then check its SKU with
 * {@link premiumButtonSkuProblem} against the application answering.
 *
 * Shape (the platform's public components reference): `{type: 2, style: 6, sku_id, disabled?,
 * id?}`; a premium button has no custom_id, label, emoji or url (the platform draws it from the
 * SKU), and its SKU is an available SKU of the application (not a SUBSCRIPTION_GROUP).
 * @example
 * const button = validate(PremiumButtonSchema, component);
 * const problem = await premiumButtonSkuProblem(ctx, application.id, button.sku_id);
 * if (problem) throw ApiError.invalidForm({ 'components.0.components.0.sku_id': problem });
 */
import * as v from 'valibot';
import { refuseArrays } from '../core/json-object';
import type { PlatformContext } from '../core/context';
import { SKU_FLAGS, SKU_TYPE } from '../../store/records/monetization';
import { isSnowflake } from '../core/snowflake';

/** The component type of a button. */
export const BUTTON_COMPONENT_TYPE = 2;
/** The button style that carries a sku_id. */
export const BUTTON_STYLE_PREMIUM = 6;

/** Why a PREMIUM_REQUIRED (10) callback should be replaced, for a deprecation warning. */
export const PREMIUM_REQUIRED_DEPRECATED =
  'Interaction callback type 10 (PREMIUM_REQUIRED) is deprecated: respond with a message holding a premium button (style 6) with the sku_id.';

/** Fields a premium button must not carry. */
const NOT_ON_PREMIUM = ['custom_id', 'label', 'emoji', 'url'] as const;

/**
 * A premium button: type 2, style 6, a sku_id snowflake; optional `disabled` and `id`; none of
 * custom_id, label, emoji, url (each refused under its own name).
 */
export const PremiumButtonSchema = v.pipe(
  refuseArrays(
    v.looseObject({
      type: v.literal(BUTTON_COMPONENT_TYPE, 'A premium button is a button (type 2).'),
      style: v.literal(BUTTON_STYLE_PREMIUM, 'A premium button has style 6.'),
      sku_id: v.pipe(
        v.string('A premium button needs a sku_id.'),
        v.check((s: string) => isSnowflake(s), 'Value is not snowflake.'),
      ),
      disabled: v.optional(v.boolean()),
      id: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(2 ** 31 - 1))),
    }),
  ),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const key of NOT_ON_PREMIUM) {
      if ((dataset.value as Record<string, unknown>)[key] !== undefined) {
        addIssue({
          message: `A premium button has no ${key}: the platform shows the SKU.`,
          path: [
            {
              type: 'object',
              origin: 'value',
              input: dataset.value,
              key,
              value: (dataset.value as Record<string, unknown>)[key],
            },
          ],
        });
      }
    }
  }),
);
/** A validated premium button. */
export type PremiumButton = v.InferOutput<typeof PremiumButtonSchema>;

/**
 * Why `skuId` cannot back a premium button of application `applicationId` (unknown or another
 * application's, a system-generated group, not available), or null when it can.
 */
export async function premiumButtonSkuProblem(
  ctx: PlatformContext,
  applicationId: string,
  skuId: string,
): Promise<string | null> {
  const sku = await ctx.db.get('skus', skuId);
  if (!sku || sku.application_id !== applicationId) return 'Unknown SKU of this application.';
  if (sku.type === SKU_TYPE.SUBSCRIPTION_GROUP)
    return 'A SUBSCRIPTION_GROUP SKU cannot be bought: use its SUBSCRIPTION SKU.';
  if ((sku.flags & SKU_FLAGS.AVAILABLE) === 0) return 'This SKU is not available for purchase.';
  return null;
}
