/**
 * Types of `discord-api-spec/zod`: the package points its `types` condition at the plain `.js`
 * build, which TypeScript does not read without `allowJs`. The check only looks its schemas up
 * by name, so a schema per exported name is all it needs to know.
 */
declare module 'discord-api-spec/zod' {
  import type { ZodMiniType } from 'zod/mini';

  /** Makes the schemas built after the call strict; the build's own schemas are already built non-strict. */
  export function setStrictObject(strict: boolean): void;
  /** The user object, the one schema named here for a sanity check of the lookup. */
  export const UserResponseSchema: ZodMiniType;
}
