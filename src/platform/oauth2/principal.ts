/**
 * The authenticated caller of a request, as `authenticate` (`auth.ts`) finds it. Types only, so
 * that what keeps callers (the read cache of `core/`) does not import the code that finds them.
 */
import type { ApplicationRecord, UserRecord } from '../../store/records/core';
import type { TokenRecord } from '../../store/schema';

/** A bot calling with its bot token. */
export interface BotPrincipal {
  kind: 'bot';
  application: ApplicationRecord;
  user: UserRecord;
}

/** A user calling through an application with an OAuth2 access token. */
export interface BearerPrincipal {
  kind: 'bearer';
  application: ApplicationRecord;
  user: UserRecord;
  /** Granted scopes with umbrella scopes expanded, less what the application may not have now (`scopesFor`). */
  scopes: Set<string>;
  token: TokenRecord;
}

/** The authenticated caller of a request. */
export type Principal = BotPrincipal | BearerPrincipal;
