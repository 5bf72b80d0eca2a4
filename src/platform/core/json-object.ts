/**
 * JSON objects in request bodies: valibot's object schemas take an array for an object (its check
 * is `typeof input === 'object'`, so `[]` passes as `{}`); these refuse it. Apart from valibot
 * this file imports nothing, so any schema may use it without pulling in more code.
 */
import * as v from 'valibot';

/** What an object schema answers for an array (valibot's `object` alone takes `[]` as `{}`). */
const OBJECT_NOT_ARRAY = 'Must be a JSON object, not an array.';

/** The object schemas of valibot: their input check is `typeof input === 'object'`, which an array passes. */
type ObjectLikeSchema =
  | v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>
  | v.LooseObjectSchema<v.ObjectEntries, v.ErrorMessage<v.LooseObjectIssue> | undefined>;

/**
 * The same object schema, refusing an array (naming the field, as any wrong type is). It stays an
 * object schema with its `entries`, so `variant`, `partial` and spreads of its entries work as
 * they do with valibot's own.
 * @example const Premium = refuseArrays(v.looseObject({ type: v.literal(2) }));
 */
export function refuseArrays<S extends ObjectLikeSchema>(schema: S): S {
  type Run = (
    this: S,
    dataset: v.UnknownDataset,
    config: v.Config<v.BaseIssue<unknown>>,
  ) => v.OutputDataset<unknown, v.BaseIssue<unknown>>;
  const mutable = schema as unknown as { '~run': Run };
  const run = mutable['~run'];
  // `this`, not `schema`: `partial`, `pick` and the like copy this function onto a schema of their own entries.
  mutable['~run'] = function (dataset, config) {
    if (!Array.isArray(dataset.value)) return run.call(this, dataset, config);
    const message = typeof this.message === 'string' ? this.message : OBJECT_NOT_ARRAY;
    v._addIssue(this as unknown as Parameters<typeof v._addIssue>[0], 'type', dataset, config, { message });
    return dataset as unknown as v.OutputDataset<unknown, v.BaseIssue<unknown>>;
  };
  return schema;
}

/**
 * A JSON object with these fields: valibot's `object`, except that an array is refused where an
 * object is required (at the top of a body and at every nested field alike). Every body schema
 * of the platform is built from it.
 * @example export const PutLobbyMemberSchema = jsonObject({ metadata: v.optional(LobbyMetadataSchema) });
 */
export function jsonObject<const Entries extends v.ObjectEntries>(entries: Entries, message?: string) {
  return refuseArrays(v.object(entries, message));
}
