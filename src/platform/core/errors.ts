/**
 * The platform's one error type and the table of every error it answers with
 * (CONTRACT §2). Route code throws `ApiError`; the HTTP app turns it into a JSON body, the
 * RPC host into an ERROR frame. Anything else thrown is a bug and becomes a 500.
 */

/** One field's errors, as the platform nests them: `{field: {_errors: [{code, message}]}}`. */
export interface FieldErrors {
  _errors?: { code: string; message: string }[];
  [field: string]: FieldErrors | { code: string; message: string }[] | undefined;
}

/** The JSON body of every API error. */
export interface ApiErrorBody {
  code: number;
  message: string;
  errors?: FieldErrors;
  /** Rate limits (429) only. */
  retry_after?: number;
  global?: boolean;
}

/** Every error the API answers with, by name: HTTP status, JSON error code and message. */
export const API_ERRORS = {
  UNKNOWN_ROUTE: { status: 404, code: 0, message: '404: Not Found' },
  METHOD_NOT_ALLOWED: { status: 405, code: 0, message: '405: Method Not Allowed' },
  REQUEST_ALREADY_APPLIED: {
    status: 409,
    code: 0,
    message:
      'This request was already applied, but its answer was lost when the service worker stopped: read the resource to see the result.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    code: 0,
    message: 'This Idempotency-Key was already used for a different request.',
  },
  // The activity proxy (URL mappings): the target could not be reached, or whose mapping applies is unclear.
  URL_MAPPING_UNREACHABLE: { status: 502, code: 0, message: '502: Bad Gateway' },
  URL_MAPPING_AMBIGUOUS: { status: 409, code: 0, message: 'Several applications map this path to different targets.' },
  // A page that joined a platform server: its service worker could not reach it.
  SERVER_UNREACHABLE: { status: 502, code: 0, message: '502: Bad Gateway' },
  // Fixture sets of the sandbox control API (named records of what a tool seeded).
  UNKNOWN_FIXTURE_SET: { status: 404, code: 0, message: 'Unknown Fixture Set' },
  FIXTURE_SET_EXISTS: {
    status: 412,
    code: 0,
    message: 'The fixture set exists already: the request asked to create it only (If-None-Match: *).',
  },
  UNAUTHORIZED: { status: 401, code: 0, message: '401: Unauthorized' },
  UNKNOWN_APPLICATION: { status: 404, code: 10002, message: 'Unknown Application' },
  UNKNOWN_CHANNEL: { status: 404, code: 10003, message: 'Unknown Channel' },
  UNKNOWN_GUILD: { status: 404, code: 10004, message: 'Unknown Guild' },
  UNKNOWN_MEMBER: { status: 404, code: 10007, message: 'Unknown Member' },
  UNKNOWN_MESSAGE: { status: 404, code: 10008, message: 'Unknown Message' },
  UNKNOWN_OVERWRITE: { status: 404, code: 10009, message: 'Unknown Overwrite' },
  UNKNOWN_ROLE: { status: 404, code: 10011, message: 'Unknown Role' },
  UNKNOWN_TOKEN: { status: 404, code: 10012, message: 'Unknown Token' },
  UNKNOWN_USER: { status: 404, code: 10013, message: 'Unknown User' },
  UNKNOWN_LOBBY: { status: 404, code: 10031, message: 'Unknown Lobby' },
  // Guild features: invites, emoji, voice states (the platform's public codes).
  UNKNOWN_INVITE: { status: 404, code: 10006, message: 'Unknown Invite' },
  UNKNOWN_EMOJI: { status: 404, code: 10014, message: 'Unknown Emoji' },
  UNKNOWN_ACTIVITY_INSTANCE: { status: 404, code: 0, message: 'Unknown Activity Instance' },
  UNKNOWN_GUILD_SCHEDULED_EVENT: { status: 404, code: 10070, message: 'Unknown Guild Scheduled Event' },
  UNKNOWN_GUILD_SCHEDULED_EVENT_USER: { status: 404, code: 10071, message: 'Unknown Guild Scheduled Event User' },
  CANNOT_UPDATE_FINISHED_EVENT: { status: 400, code: 180000, message: 'Cannot update a finished event' },
  UNKNOWN_VOICE_STATE: { status: 404, code: 10065, message: 'Unknown Voice State' },
  UNKNOWN_INVITE_TARGET_USERS_JOB: { status: 404, code: 10124, message: 'Unknown invite target users job' },
  UNKNOWN_INVITE_TARGET_USERS: { status: 404, code: 10129, message: 'Unknown invite target users' },
  // Guild settings (widget, integrations, onboarding, incident actions): the platform's public codes.
  UNKNOWN_INTEGRATION: { status: 404, code: 10005, message: 'Unknown Integration' },
  WIDGET_DISABLED: { status: 403, code: 50004, message: 'Widget Disabled' },
  ONBOARDING_REQUIREMENTS_NOT_MET: {
    status: 400,
    code: 350000,
    message: 'Cannot enable onboarding, requirements are not met',
  },
  ONBOARDING_BELOW_REQUIREMENTS: {
    status: 400,
    code: 350001,
    message: 'Cannot update onboarding while below requirements',
  },
  // The public docs name no code for an invite refused while the guild's invites are paused.
  INVITES_PAUSED: { status: 403, code: 0, message: 'Invites are currently paused for this server' },
  GUILD_CREATION_REMOVED: {
    status: 403,
    code: 20001,
    message: 'Applications can no longer create guilds: POST /guilds was removed for apps on 2025-07-15.',
  },
  UNKNOWN_BAN: { status: 404, code: 10026, message: 'Unknown Ban' },
  ROLES_MAX: { status: 400, code: 30005, message: 'Maximum number of guild roles reached (250)' },
  BANNED_FROM_GUILD: { status: 403, code: 40007, message: 'The user is banned from this guild.' },
  INVALID_ROLE: { status: 400, code: 50028, message: 'Invalid Role' },
  BULK_BAN_FAILED: { status: 400, code: 500000, message: 'Failed to ban users' },
  EMOJIS_MAX: { status: 400, code: 30008, message: 'Maximum number of emojis reached' },
  ANIMATED_EMOJIS_MAX: { status: 400, code: 30018, message: 'Maximum number of animated emojis reached' },
  USER_NOT_CONNECTED_TO_VOICE: { status: 400, code: 40032, message: 'Target user is not connected to voice' },
  BOTS_CANNOT_USE_ENDPOINT: { status: 403, code: 20001, message: 'Bots cannot use this endpoint' },
  ONLY_BOTS_CAN_USE_ENDPOINT: { status: 403, code: 20002, message: 'Only bots can use this endpoint' },
  ENDPOINT_UNAVAILABLE: {
    status: 403,
    code: 20012,
    message: 'You are not authorized to perform this action on this application',
  },
  REACTIONS_MAX: { status: 400, code: 30010, message: 'Maximum number of reactions reached (20)' },
  RECIPIENTS_MAX: { status: 400, code: 30004, message: 'Maximum number of recipients reached (10)' },
  GROUP_DMS_MAX: { status: 400, code: 30011, message: 'Maximum number of group DMs reached (10)' },
  CANNOT_EXECUTE_IN_DM: { status: 403, code: 50003, message: 'Cannot execute action on a DM channel' },
  ALREADY_CROSSPOSTED: { status: 400, code: 40033, message: 'This message has already been crossposted.' },
  POLL_EXPIRED: { status: 400, code: 520001, message: 'Poll expired' },
  CANNOT_EXPIRE_NON_POLL: { status: 400, code: 520006, message: 'Cannot expire a non-poll message' },
  BULK_DELETE_TOO_OLD: { status: 400, code: 50034, message: 'A message provided was too old to bulk delete' },
  LOBBY_MEMBERS_MAX: { status: 400, code: 30059, message: 'Maximum number of lobby members reached' },
  LOBBIES_PER_USER_MAX: { status: 400, code: 30060, message: 'Maximum number of lobbies reached' },
  REQUEST_TOO_LARGE: { status: 413, code: 40005, message: 'Request entity too large' },
  INVALID_GUILD: { status: 400, code: 50055, message: 'Invalid Guild' },
  MISSING_ACCESS: { status: 403, code: 50001, message: 'Missing Access' },
  CANNOT_EXECUTE_ON_CHANNEL_TYPE: { status: 400, code: 50024, message: 'Cannot execute action on this channel type' },
  INVALID_ACCOUNT_TYPE: { status: 403, code: 50002, message: 'Invalid account type' },
  MISSING_PERMISSIONS: { status: 403, code: 50013, message: 'Missing Permissions' },
  INVALID_FORM_BODY: { status: 400, code: 50035, message: 'Invalid Form Body' },
  MISSING_SCOPE: { status: 403, code: 50025, message: 'Invalid OAuth2 access token' },
  INVALID_JSON: { status: 400, code: 50109, message: 'The request body contains invalid JSON.' },
  INDEX_NOT_READY: { status: 400, code: 110000, message: 'This index has not been created yet.' },
  CANNOT_FORWARD_UNREADABLE: {
    status: 400,
    code: 160014,
    message: 'Cannot forward a message whose content you cannot read.',
  },
  MERGE_BANNED_ACCOUNT: { status: 400, code: 530017, message: 'Cannot merge an account affected by a ban.' },
  // Provisional accounts and external identities (the platform's public 5300xx codes).
  PROVISIONAL_NOT_CONFIGURED: {
    status: 400,
    code: 530000,
    message: 'The application is not configured for this external auth type.',
  },
  EXTERNAL_TOKEN_EXPIRED: { status: 400, code: 530001, message: 'The external auth token has expired.' },
  EXTERNAL_TOKEN_INVALID_ISSUER: {
    status: 400,
    code: 530002,
    message: 'The external auth token was not issued by the configured issuer.',
  },
  EXTERNAL_TOKEN_INVALID_AUDIENCE: {
    status: 400,
    code: 530003,
    message: 'The external auth token is not meant for the configured audience.',
  },
  EXTERNAL_TOKEN_TOO_OLD: { status: 400, code: 530004, message: 'The external auth token was issued too long ago.' },
  INVALID_CLIENT_SECRET: { status: 401, code: 530007, message: 'Invalid client secret.' },
  OIDC_CONFIGURATION_NOT_FOUND: {
    status: 400,
    code: 530008,
    message: "The identity provider's OpenID configuration could not be fetched.",
  },
  OIDC_JWKS_NOT_FOUND: { status: 400, code: 530009, message: "The identity provider's key set could not be fetched." },
  ACCOUNT_NOT_PROVISIONAL: {
    status: 400,
    code: 530010,
    message: 'This external identity is linked to a full account: use the OAuth2 flow.',
  },
  INVALID_MERGE_SOURCE: { status: 400, code: 530014, message: 'The account to merge is not a provisional account.' },
  INVALID_MERGE_DESTINATION: {
    status: 400,
    code: 530016,
    message: 'A provisional account cannot be merged into another provisional account.',
  },
  INVALID_OIDC_TOKEN: { status: 400, code: 530020, message: 'Invalid OpenID Connect ID token.' },
  TOO_MANY_APPLICATION_IDENTITIES: {
    status: 400,
    code: 530023,
    message: 'This account already has an external identity for this application.',
  },
  INVALID_USER_TYPE: { status: 400, code: 50229, message: 'Invalid user type: this account is provisional.' },
  PERMANENT_BAN: { status: 409, code: 0, message: 'A permanent ban cannot be lifted.' },
  ENDPOINT_REMOVED: { status: 410, code: 0, message: 'This endpoint is no longer available.' },
  // Relationships and direct messages (the platform's public codes).
  FRIENDS_MAX: { status: 400, code: 30002, message: 'Maximum number of friends reached (1000)' },
  CANNOT_MESSAGE_USER: { status: 403, code: 50007, message: 'Cannot send messages to this user' },
  INVALID_RECIPIENT: { status: 400, code: 50033, message: 'Invalid Recipient(s)' },
  FRIEND_REQUEST_REFUSED: { status: 400, code: 80000, message: 'Friend request failed' },
  UNKNOWN_USERNAME: { status: 400, code: 80004, message: 'No users with this username exist' },
  // Monetization (the platform's public codes; an unknown subscription has none, so 0).
  UNKNOWN_SKU: { status: 404, code: 10027, message: 'Unknown SKU' },
  UNKNOWN_ENTITLEMENT: { status: 404, code: 10029, message: 'Unknown Entitlement' },
  UNKNOWN_SUBSCRIPTION: { status: 404, code: 0, message: 'Unknown Subscription' },
  ONLY_CONSUMABLE_SKUS: { status: 400, code: 40018, message: 'Only consumable SKUs can be consumed' },
  ONLY_TEST_ENTITLEMENTS: { status: 400, code: 40019, message: 'You can only delete sandbox entitlements.' },
  ENTITLEMENT_ALREADY_GRANTED: {
    status: 400,
    code: 40074,
    message: 'An entitlement has already been granted for this resource',
  },
  INVALID_SKU: { status: 400, code: 50057, message: 'Invalid SKU' },
  SUBSCRIPTION_NOT_ONGOING: { status: 400, code: 0, message: 'This subscription has ended.' },
  // Messages of guild channels (the platform's public codes).
  CANNOT_EDIT_OTHERS_MESSAGE: { status: 403, code: 50005, message: 'Cannot edit a message authored by another user' },
  CANNOT_SEND_EMPTY_MESSAGE: { status: 400, code: 50006, message: 'Cannot send an empty message' },
  NON_TEXT_CHANNEL: { status: 400, code: 50008, message: 'Cannot send messages in a non-text channel' },
  PINS_MAX: { status: 400, code: 30003, message: 'Maximum number of pins reached for the channel' },
  // Threads.
  THREAD_ARCHIVED: { status: 400, code: 50083, message: 'Thread is archived' },
  THREAD_ALREADY_CREATED: { status: 400, code: 160004, message: 'A thread has already been created for this message' },
  THREAD_LOCKED: { status: 400, code: 160005, message: 'Thread is locked' },
  ACTIVE_THREADS_MAX: { status: 400, code: 160006, message: 'Maximum number of active threads reached' },
  SLOWMODE_RATE_LIMITED: {
    status: 429,
    code: 20016,
    message: 'This action cannot be performed due to slowmode rate limit.',
  },
  RATE_LIMITED: { status: 429, code: 0, message: 'You are being rate limited.' },
  AUTOMOD_BLOCKED: { status: 400, code: 200000, message: 'Message was blocked by automatic moderation' },
  // Application commands and interactions (the platform's public codes).
  UNKNOWN_WEBHOOK: { status: 404, code: 10015, message: 'Unknown Webhook' },
  // Incoming webhooks and guild channels (the platform's public codes).
  INVALID_WEBHOOK_TOKEN: { status: 401, code: 50027, message: 'Invalid Webhook Token' },
  WEBHOOKS_MAX: { status: 400, code: 30007, message: 'Maximum number of webhooks reached (15)' },
  GUILD_WEBHOOKS_MAX: { status: 400, code: 30058, message: 'Maximum number of webhooks per guild reached (1000)' },
  GUILD_CHANNELS_MAX: { status: 400, code: 30013, message: 'Maximum number of guild channels reached (500)' },
  UNKNOWN_INTERACTION: { status: 404, code: 10062, message: 'Unknown interaction' },
  UNKNOWN_APPLICATION_COMMAND_PERMISSIONS: {
    status: 404,
    code: 10066,
    message: 'Unknown application command permissions',
  },
  UNKNOWN_APPLICATION_COMMAND: { status: 404, code: 10063, message: 'Unknown application command' },
  APPLICATION_COMMANDS_MAX: { status: 400, code: 30032, message: 'Maximum number of application commands reached' },
  INTERACTION_ALREADY_ACKNOWLEDGED: { status: 400, code: 40060, message: 'Interaction has already been acknowledged.' },
  INTERACTION_FOLLOWUPS_MAX: {
    status: 400,
    code: 40094,
    message: 'This interaction has hit the maximum number of follow up messages',
  },
  // Embedded-app RPC errors (CONTRACT §5): the RPC host answers them as ERROR frames with this
  // code and message; the status only matters if one ever crosses HTTP.
  RPC_UNKNOWN_ERROR: { status: 500, code: 1000, message: 'Unknown error' },
  RPC_INVALID_PAYLOAD: { status: 400, code: 4000, message: 'Invalid payload' },
  RPC_INVALID_COMMAND: { status: 400, code: 4002, message: 'Invalid command' },
  RPC_INVALID_GUILD: { status: 400, code: 4003, message: 'Invalid guild' },
  RPC_INVALID_EVENT: { status: 400, code: 4004, message: 'Invalid event' },
  RPC_INVALID_CHANNEL: { status: 400, code: 4005, message: 'Invalid channel' },
  RPC_INVALID_PERMISSIONS: { status: 403, code: 4006, message: 'Not authenticated or invalid scope' },
  RPC_INVALID_CLIENT_ID: { status: 400, code: 4007, message: 'Invalid client id' },
  RPC_INVALID_ORIGIN: { status: 403, code: 4008, message: 'Invalid origin' },
  RPC_INVALID_TOKEN: { status: 401, code: 4009, message: 'Invalid token' },
  RPC_INVALID_USER: { status: 400, code: 4010, message: 'Invalid user' },
  RPC_OAUTH2_ERROR: {
    status: 400,
    code: 5000,
    message: 'OAuth2 Error: access_denied: The resource owner or authorization server denied the request',
  },
} as const;

/** The name of an entry in {@link API_ERRORS}. */
export type ApiErrorName = keyof typeof API_ERRORS;

/**
 * The platform's one error type: an HTTP status, the platform's JSON error code, a message,
 * and for invalid form bodies the tree of field errors.
 * @example throw ApiError.of('UNKNOWN_LOBBY');
 * @example throw ApiError.invalidForm({ secret: 'Must be 250 or fewer in length.' });
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: FieldErrors,
    /** For a 429: seconds until the caller may try again (CONTRACT §2 rate-limit body). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The error named in {@link API_ERRORS}, optionally with a more precise message. */
  static of(name: ApiErrorName, message?: string): ApiError {
    const e = API_ERRORS[name];
    return new ApiError(e.status, e.code, message ?? e.message);
  }

  /**
   * A 429 named in {@link API_ERRORS}, answered as `{message, retry_after, global: false, code}`
   * with a `Retry-After` header.
   * @example throw ApiError.rateLimited('RATE_LIMITED', 1.5);
   */
  static rateLimited(name: ApiErrorName, retryAfterSeconds: number): ApiError {
    const e = API_ERRORS[name];
    return new ApiError(e.status, e.code, e.message, undefined, retryAfterSeconds);
  }

  /**
   * A 400 / 50035 naming each bad field. Keys are dotted paths (`members.3.id`); values are
   * a message, or `{code, message}` when the field error has a specific code.
   */
  static invalidForm(fields: Record<string, string | { code: string; message: string }>): ApiError {
    const tree: FieldErrors = {};
    for (const [path, detail] of Object.entries(fields)) {
      const item = typeof detail === 'string' ? { code: 'BASE_TYPE_INVALID', message: detail } : detail;
      let node: FieldErrors = tree;
      for (const part of path.split('.').filter(Boolean)) {
        // Own properties only: a field named `toString` or `__proto__` must not reach Object.prototype.
        if (!Object.hasOwn(node, part))
          Object.defineProperty(node, part, { value: {}, enumerable: true, writable: true, configurable: true });
        node = node[part] as FieldErrors;
      }
      (node._errors ??= []).push(item);
    }
    const e = API_ERRORS.INVALID_FORM_BODY;
    return new ApiError(e.status, e.code, e.message, tree);
  }

  /** The JSON body of this error. */
  toJSON(): ApiErrorBody {
    if (this.retryAfter !== undefined)
      return { code: this.code, message: this.message, retry_after: this.retryAfter, global: false };
    return this.errors
      ? { code: this.code, message: this.message, errors: this.errors }
      : { code: this.code, message: this.message };
  }
}

/**
 * An OAuth2 error (RFC 6749 §5.2), answered as `{error, error_description}` by the token
 * endpoints rather than the platform's `{code, message}` body.
 * @example throw new OAuth2Error('invalid_grant', 'Invalid "code" in request.');
 */
export class OAuth2Error extends Error {
  constructor(
    readonly error:
      | 'invalid_request'
      | 'invalid_client'
      | 'invalid_grant'
      | 'unauthorized_client'
      | 'unsupported_grant_type'
      | 'invalid_scope'
      | 'access_denied'
      | 'unsupported_response_type',
    readonly description: string,
    readonly status = error === 'invalid_client' ? 401 : 400,
  ) {
    super(description);
    this.name = 'OAuth2Error';
  }

  /** The RFC 6749 error body. */
  toJSON(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}
