/**
 * Every number of the spec's Limits section, and the few platform limits the issues name,
 * as named constants. Code reads limits from here and nowhere else.
 */

/** Request Guild Members for all members: one request per guild per bot per this window. */
export const REQUEST_ALL_MEMBERS_WINDOW_MS = 30_000;
/** Members in one GUILD_MEMBERS_CHUNK. */
export const GUILD_MEMBERS_CHUNK_MAX = 1000;
/** Bytes in a Request Guild Members nonce. */
export const GUILD_MEMBERS_NONCE_MAX_BYTES = 32;

/** Messages returned by one lobby messages fetch (the most recent). */
export const LOBBY_MESSAGES_MAX = 200;
/** Default `limit` of a lobby messages fetch. */
export const LOBBY_MESSAGES_DEFAULT = 50;
/** SDK `GetLobbyMessagesWithLimit`: the oldest message it returns, in hours. */
export const LOBBY_MESSAGES_HISTORY_HOURS = 72;
/** Lobby members added, updated or removed by one bulk request (and by one create). */
export const LOBBY_MEMBERS_BULK_MAX = 25;
/** Members of one lobby. */
export const LOBBY_MEMBERS_MAX = 1000;
/** Lobbies one user may be a member of, per application. */
export const LOBBIES_PER_USER_MAX = 100;
/** Characters in a lobby join secret. */
export const LOBBY_SECRET_MAX = 250;
/** Total characters of a metadata dictionary (keys and values). */
export const LOBBY_METADATA_MAX = 1000;
/** Bounds of a lobby's `idle_timeout_seconds`. */
export const LOBBY_IDLE_TIMEOUT_MIN_S = 5;
export const LOBBY_IDLE_TIMEOUT_MAX_S = 604_800;
/** Idle timeout of a lobby that did not set one. */
export const LOBBY_IDLE_TIMEOUT_DEFAULT_S = 300;
/** Characters in a lobby message. */
export const LOBBY_MESSAGE_CONTENT_MAX = 4000;
/** Keys in a lobby message's metadata, and characters in each of its keys and values. */
export const LOBBY_MESSAGE_METADATA_KEYS_MAX = 25;
export const LOBBY_MESSAGE_METADATA_ENTRY_MAX = 1024;
/** A join secret stops joining its lobby this long after the lobby was created (the lobby stays). */
export const LOBBY_SECRET_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A lobby channel invite is single use and valid this long. */
export const LOBBY_CHANNEL_INVITE_TTL_MS = 60 * 60 * 1000;

/** Characters in a voice channel status. */
export const VOICE_CHANNEL_STATUS_MAX = 500;
/** Fields in one embed. */
export const EMBED_FIELDS_MAX = 25;
/** Characters in a guild tag (primary_guild badge). */
export const GUILD_TAG_MIN = 1;
export const GUILD_TAG_MAX = 4;

/** Create Channel Invite (public docs): `max_age` 0 (never) to 7 days, 24 hours unless given; `max_uses` 0 (unlimited) to 100. */
export const INVITE_MAX_AGE_MAX_S = 604_800;
export const INVITE_MAX_AGE_DEFAULT_S = 86_400;
export const INVITE_MAX_USES_MAX = 100;
/** Largest target users file (CSV) the sandbox reads: ours, the docs give none (about 50,000 ids). */
export const INVITE_TARGET_USERS_FILE_MAX_BYTES = 1024 * 1024;
/** Emoji (public docs): an image of at most 256 KiB; names of 2 to 32 characters. */
export const EMOJI_IMAGE_MAX_BYTES = 256 * 1024;
export const EMOJI_NAME_MIN = 2;
export const EMOJI_NAME_MAX = 32;
/** Emoji of a guild without boosts (public docs): 50 static and 50 animated. */
export const GUILD_EMOJI_MAX = 50;
/** Roles of one guild, @everyone included (public docs: error 30005 past it). */
export const GUILD_ROLES_MAX = 250;
/** Guild names (Modify Guild, Create Guild): 2 to 100 characters. */
export const GUILD_NAME_MIN = 2;
export const GUILD_NAME_MAX = 100;
/** Bans: `delete_message_seconds` 0 to 7 days; users per bulk ban; bans per page (1000 unless given). */
export const BAN_DELETE_MESSAGE_SECONDS_MAX = 604_800;
export const BULK_BAN_USERS_MAX = 200;
export const GUILD_BANS_LIST_MAX = 1000;
/** Search Guild Members: 1 to 1000 members (1 unless given), query up to 100 characters (ours). */
export const GUILD_MEMBERS_SEARCH_MAX = 1000;
export const GUILD_MEMBERS_SEARCH_QUERY_MAX = 100;
/** Guild prune `days`: 1 to 30, 7 unless given. */
export const PRUNE_DAYS_MIN = 1;
export const PRUNE_DAYS_MAX = 30;
export const PRUNE_DAYS_DEFAULT = 7;
/** A member timeout (`communication_disabled_until`) ends at most 28 days ahead. */
export const COMMUNICATION_DISABLED_MAX_MS = 28 * 24 * 60 * 60 * 1000;
/** Characters in a member nickname and in a guild member bio (the platform's user bio limit). */
export const MEMBER_NICK_MAX = 32;
export const MEMBER_BIO_MAX = 190;
/** Guild audit log read: entries per request, 50 unless given. */
export const AUDIT_LOG_LIMIT_MAX = 100;
export const AUDIT_LOG_LIMIT_DEFAULT = 50;
/** Guild scheduled events: characters of the name, the description and an external location. */
export const SCHEDULED_EVENT_NAME_MAX = 100;
export const SCHEDULED_EVENT_DESCRIPTION_MAX = 1000;
export const SCHEDULED_EVENT_LOCATION_MAX = 100;
/** `GET .../scheduled-events/{id}/users`: users per page (the default is the maximum). */
export const SCHEDULED_EVENT_USERS_LIMIT_MAX = 100;

/** Default upload limit per attachment from `RULE_DATES.UPLOAD_LIMIT_10_MIB` (10 MiB). */
export const UPLOAD_LIMIT_DEFAULT_BYTES = 10 * 1024 * 1024;
/** Default upload limit per attachment before `RULE_DATES.UPLOAD_LIMIT_10_MIB` (25 MiB). */
export const UPLOAD_LIMIT_LEGACY_BYTES = 25 * 1024 * 1024;

/** File Upload component: bounds of `min_values` / `max_values`. */
export const FILE_UPLOAD_COUNT_MIN = 0;
export const FILE_UPLOAD_COUNT_MAX = 10;
/** Components in a message with IS_COMPONENTS_V2. */
export const COMPONENTS_V2_MAX = 40;
/** Action rows in a legacy message. */
export const LEGACY_ACTION_ROWS_MAX = 5;
/** Context menu commands per type (was 5). */
export const CONTEXT_MENU_COMMANDS_PER_TYPE_MAX = 15;
/** Globally scoped entry point commands per application. */
export const ENTRY_POINT_COMMANDS_MAX = 1;
/** Application emoji per application. */
export const APPLICATION_EMOJI_MAX = 2000;
/** Follow-up messages per interaction for apps installed only as user-installed apps. */
export const USER_INSTALL_FOLLOWUPS_MAX = 5;

/** SDK HTTP request timeout unless set with `setHttpRequestTimeout`. */
export const SDK_HTTP_TIMEOUT_DEFAULT_MS = 30_000;
/** Privileged intents: accessible users below which a toggle is enough; from it, an approval. */
export const PRIVILEGED_INTENTS_APPROVAL_THRESHOLD = 10_000;
/** Privileged intents: an app may reapply for access once per year. */
export const PRIVILEGED_INTENTS_REAPPLICATIONS_PER_YEAR = 1;

/** Gateway: the largest payload a client may send, in bytes (UTF-8); a larger one closes with 4002. */
export const GATEWAY_PAYLOAD_MAX_BYTES = 4096;
/** Gateway: Identifies `GET /gateway/bot` reports a bot may start (sessions are not limited here). */
export const GATEWAY_SESSION_START_LIMIT = 1000;
/** Gateway: payloads a session may send per window before close code 4008. */
export const GATEWAY_SEND_LIMIT = 120;
export const GATEWAY_SEND_WINDOW_MS = 60_000;
/** Gateway heartbeat interval sent in Hello. */
export const GATEWAY_HEARTBEAT_INTERVAL_MS = 41_250;
/** Gateway: a connection with no heartbeat for the interval times this is closed (4009). */
export const GATEWAY_HEARTBEAT_TIMEOUT_FACTOR = 1.5;
/** Gateway Identify `large_threshold`: default and bounds. */
export const GATEWAY_LARGE_THRESHOLD_DEFAULT = 50;
export const GATEWAY_LARGE_THRESHOLD_MIN = 50;
export const GATEWAY_LARGE_THRESHOLD_MAX = 250;
/** Resume points a session keeps; a Resume from further back gets Invalid Session. */
export const GATEWAY_RESUME_MARKS_MAX = 5000;
/**
 * The gateway's writes of resume points (one per batch of dispatches, for every session at once)
 * kept in the store: a Resume from a point older than the newest this many gets Invalid Session.
 */
export const GATEWAY_RESUME_BATCHES_MAX = 5000;
/**
 * A session's part of a batch is keyed in the index (an anchor) at least every this many batches
 * of a start of the gateway: a Resume reads the batches after an anchor, at most this many less one.
 */
export const GATEWAY_RESUME_ANCHOR_EVERY = 16;
/**
 * After the shared worker restarted, how long the sessions its previous start left connected
 * still count for presence: their pages resume meanwhile. As long as a connection may go
 * without a heartbeat before it is closed (4009).
 */
export const PRESENCE_RESTART_GRACE_MS = GATEWAY_HEARTBEAT_INTERVAL_MS * GATEWAY_HEARTBEAT_TIMEOUT_FACTOR;
/**
 * How long a gateway session that dropped (and may still be resumed) keeps the user's voice
 * states: as long as a session without a heartbeat lives. A session that ends for good leaves at once.
 */
export const VOICE_STATE_SESSION_GRACE_MS = GATEWAY_HEARTBEAT_INTERVAL_MS * GATEWAY_HEARTBEAT_TIMEOUT_FACTOR;
/** Request Guild Members by query prefix, or by user ids: at most this many members / ids. */
export const GUILD_MEMBERS_QUERY_MAX = 100;
export const GUILD_MEMBERS_USER_IDS_MAX = 100;
/** HTTP List Guild Members: largest `limit`. */
export const GUILD_MEMBERS_LIST_MAX = 1000;

/** OAuth2: lifetime of an authorization code, an access token. */
export const OAUTH2_CODE_TTL_MS = 10 * 60 * 1000;
export const OAUTH2_ACCESS_TOKEN_TTL_S = 604_800;
/** How long an ID token of the platform's own OpenID Connect provider is valid (the sandbox's choice). */
export const PLATFORM_ID_TOKEN_TTL_S = 3600;
/** The longest `nonce` an authorize request may bind to its code (the sandbox's choice). */
export const OAUTH2_NONCE_MAX_LENGTH = 512;

/** Largest JSON request body the API reads. */
export const JSON_BODY_MAX_BYTES = 1024 * 1024;
/**
 * Deepest nesting of arrays and objects a JSON request body may have (the sandbox's choice: the
 * deepest body the API takes, a components V2 message or a subcommand group's options, nests
 * about 10 levels). Deeper bodies are refused before they are parsed or validated, so no
 * recursion in a parser, a schema or the store meets a 100,000-deep array.
 */
export const JSON_BODY_MAX_DEPTH = 32;
/**
 * Largest value of a 32-bit flags field in a body (lobby, lobby member, message, guild member
 * flags): bits 0 to 30, the ones a JavaScript bit operation keeps as they are. A larger number,
 * 2^32 for one, is refused rather than truncated by a 32-bit mask.
 */
export const FLAGS_32_MAX = 2 ** 31 - 1;

/**
 * Rich presence (SET_ACTIVITY): characters in each text field (state, details, asset keys and
 * texts, party id, secrets) and in each link. The spec does not give them; these are the
 * platform's public rich presence limits.
 */
export const RICH_PRESENCE_TEXT_MAX = 128;
export const RICH_PRESENCE_URL_MAX = 256;

/** Provisional accounts: lifetime of an access token (no refresh: the app asks again). */
export const PROVISIONAL_ACCESS_TOKEN_TTL_S = 3600;
/** An external ID token issued (`iat`) longer ago than this is refused as too old (530004). */
export const EXTERNAL_ID_TOKEN_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Characters in a provisional account's display name (`preferred_global_name`, `preferred_username`). */
export const PROVISIONAL_DISPLAY_NAME_MAX = 32;
/** Characters in the bot token endpoint's `external_user_id`. */
export const EXTERNAL_USER_ID_MAX = 256;
/** Characters in an external auth token (an ID token is a few KB at most). */
export const EXTERNAL_AUTH_TOKEN_MAX = 16_384;
/** OIDC discovery and key-set fetches: how long to wait, and the largest document read. */
export const OIDC_FETCH_TIMEOUT_MS = 10_000;
export const OIDC_DOCUMENT_MAX_BYTES = 256 * 1024;
/** Lifetime of an ID token minted by a sandbox identity provider unless asked otherwise. */
export const SANDBOX_ID_TOKEN_TTL_DEFAULT_S = 3600;
/** Characters in a connection's name (the account name at the connected service). */
export const CONNECTION_NAME_MAX = 100;

/**
 * Webhook events: an endpoint answers within this time (the platform's public docs: 3 s), or
 * the attempt counts as failed.
 */
export const WEBHOOK_RESPONSE_TIMEOUT_MS = 3000;
/**
 * Webhook events: attempts of one delivery before it is `failed`, and the wait before the
 * first retry, doubled for each later one (20, 40, 80, 160 s by the platform clock: all within
 * the public docs' "exponential backoff for up to 10 minutes").
 */
export const WEBHOOK_DELIVERY_ATTEMPTS_MAX = 5;
export const WEBHOOK_RETRY_BASE_MS = 20_000;
/** Webhook events: deliveries that fail in a row before the platform disables the app's webhooks (status 3). */
export const WEBHOOK_FAILED_DELIVERIES_BEFORE_DISABLE = 10;
/** Characters in an event webhooks URL. */
export const WEBHOOK_URL_MAX = 2048;
/** Deliveries one `GET /sandbox/webhook-deliveries` answers: default and largest `limit`. */
export const WEBHOOK_DELIVERIES_LIST_DEFAULT = 100;
export const WEBHOOK_DELIVERIES_LIST_MAX = 1000;
/** Requests a sandbox webhook sink keeps (the oldest are dropped). */
export const WEBHOOK_SINK_REQUESTS_MAX = 100;

/**
 * Direct messages (the public Social SDK guide): `GetUserMessagesWithLimit` returns at most 200
 * messages, from the last 72 hours; 50 unless asked otherwise over HTTP. Content is capped at
 * the platform's 2000 characters of a message (the docs give no other figure for game DMs).
 */
export const DM_MESSAGES_MAX = 200;
export const DM_MESSAGES_DEFAULT = 50;
export const DM_MESSAGES_HISTORY_HOURS = 72;
export const DM_MESSAGE_CONTENT_MAX = 2000;
/**
 * Moderation metadata of a lobby or direct message (the public API reference): up to 5 keys,
 * each key up to 1024 characters, each value up to 2000.
 */
export const MODERATION_METADATA_KEYS_MAX = 5;
export const MODERATION_METADATA_KEY_MAX = 1024;
export const MODERATION_METADATA_VALUE_MAX = 2000;
/** Platform-wide friends of one user (the Social SDK guide: 1,000); game friends have no limit. */
export const FRIENDS_MAX = 1000;
/** Characters in a username a friend request names. */
export const USERNAME_MAX = 32;

/** List Entitlements: default and largest `limit` (the public API reference: 1-100, default 100). */
export const ENTITLEMENTS_LIST_DEFAULT = 100;
export const ENTITLEMENTS_LIST_MAX = 100;
/** List SKU Subscriptions: default and largest `limit` (the public API reference: 1-100, default 50). */
export const SUBSCRIPTIONS_LIST_DEFAULT = 50;
export const SUBSCRIPTIONS_LIST_MAX = 100;
/** A subscription period in calendar months (the platform sells monthly app subscriptions). */
export const SUBSCRIPTION_PERIOD_MONTHS = 1;
/** Characters in a SKU's name (sandbox fixture; the developer portal's field). */
export const SKU_NAME_MAX = 100;

/**
 * Messages of guild channels (the public API reference): content up to 2000 characters, a
 * nonce up to 25, up to 10 embeds of up to 6000 characters in all, up to 10 attachments whose
 * description is up to 1024 characters; history reads 1 to 100 messages, 50 unless asked.
 */
export const MESSAGE_CONTENT_MAX = 2000;
export const MESSAGE_NONCE_MAX = 25;
export const EMBEDS_PER_MESSAGE_MAX = 10;
export const EMBED_TITLE_MAX = 256;
export const EMBED_DESCRIPTION_MAX = 4096;
export const EMBED_FIELD_NAME_MAX = 256;
export const EMBED_FIELD_VALUE_MAX = 1024;
export const EMBED_FOOTER_TEXT_MAX = 2048;
export const EMBED_AUTHOR_NAME_MAX = 256;
export const EMBED_TOTAL_CHARS_MAX = 6000;
export const ATTACHMENTS_PER_MESSAGE_MAX = 10;
export const ATTACHMENT_DESCRIPTION_MAX = 1024;
export const STICKERS_PER_MESSAGE_MAX = 3;
export const ALLOWED_MENTIONS_IDS_MAX = 100;
export const CHANNEL_MESSAGES_MAX = 100;
export const CHANNEL_MESSAGES_DEFAULT = 50;
/** `enforce_nonce`: "the past few minutes" of the public docs, taken as 2 minutes by the platform clock. */
export const MESSAGE_NONCE_WINDOW_MS = 2 * 60 * 1000;
/** Slowmode (`rate_limit_per_user`): 0 to 21600 seconds. */
export const SLOWMODE_MAX_S = 21_600;
/** Incoming webhooks: a name of 1 to 80 characters; 15 per channel, 1000 per guild (public docs). */
export const WEBHOOK_NAME_MAX = 80;
export const WEBHOOKS_PER_CHANNEL_MAX = 15;
export const WEBHOOKS_PER_GUILD_MAX = 1000;
/** Guild channels: at most 500 per guild; a name of 1 to 100 characters; a topic of at most 1024. */
export const GUILD_CHANNELS_MAX = 500;
export const CHANNEL_NAME_MAX = 100;
export const CHANNEL_TOPIC_MAX = 1024;
/**
 * Per-attachment upload limits above the default: premium tiers (Nitro 500 MiB; Nitro Basic and
 * Classic 50 MiB) and server boosts (level 2: 50 MiB, level 3: 100 MiB), the public figures.
 */
export const UPLOAD_LIMIT_NITRO_BYTES = 500 * 1024 * 1024;
export const UPLOAD_LIMIT_NITRO_BASIC_BYTES = 50 * 1024 * 1024;
export const UPLOAD_LIMIT_BOOST_TIER_2_BYTES = 50 * 1024 * 1024;
export const UPLOAD_LIMIT_BOOST_TIER_3_BYTES = 100 * 1024 * 1024;
/** Message components (public reference): ids, labels and texts. */
export const COMPONENT_CUSTOM_ID_MAX = 100;
export const BUTTONS_PER_ACTION_ROW_MAX = 5;
export const BUTTON_LABEL_MAX = 80;
export const BUTTON_URL_MAX = 512;
export const SELECT_OPTIONS_MAX = 25;
export const SELECT_OPTION_TEXT_MAX = 100;
export const SELECT_PLACEHOLDER_MAX = 150;
export const SELECT_VALUES_MAX = 25;
export const SECTION_TEXT_DISPLAYS_MAX = 3;
export const MEDIA_GALLERY_ITEMS_MAX = 10;
export const COMPONENT_MEDIA_DESCRIPTION_MAX = 1024;
/** Characters of text across every component of a message with IS_COMPONENTS_V2. */
export const COMPONENTS_V2_TEXT_MAX = 4000;
/** Polls (public reference): question 300 characters, up to 10 answers of 55, 1 to 768 hours (24 unless given). */
export const POLL_QUESTION_MAX = 300;
export const POLL_ANSWERS_MAX = 10;
export const POLL_ANSWER_TEXT_MAX = 55;
export const POLL_DURATION_MAX_H = 768;
export const POLL_DURATION_DEFAULT_H = 24;
/** Pins: pages of Get Channel Pins (1 to 50) and of the deprecated list; pins per channel (the platform's current 250). */
export const PINS_PAGE_MAX = 50;
export const PINS_PER_CHANNEL_MAX = 250;
/** Reactions: distinct emoji per message (the platform's 20, 400 30010); Get Reactions pages (1 to 100, 25 unless asked). */
export const REACTIONS_PER_MESSAGE_MAX = 20;
export const REACTION_USERS_PAGE_MAX = 100;
export const REACTION_USERS_PAGE_DEFAULT = 25;
/** Get Answer Voters pages (1 to 100, 25 unless asked). */
export const POLL_VOTERS_PAGE_MAX = 100;
export const POLL_VOTERS_PAGE_DEFAULT = 25;
/** Bulk Delete Messages: 2 to 100 ids, none older than 14 days (by the platform clock). */
export const BULK_DELETE_MIN = 2;
export const BULK_DELETE_MAX = 100;
export const BULK_DELETE_MAX_AGE_MS = 14 * 24 * 3_600_000;
/** Search Guild Messages (public reference): 1 to 25 results (25 unless asked), offset up to 9975, content up to 1024 characters. */
export const MESSAGE_SEARCH_LIMIT_MAX = 25;
export const MESSAGE_SEARCH_OFFSET_MAX = 9975;
export const MESSAGE_SEARCH_CONTENT_MAX = 1024;
export const MESSAGE_SEARCH_IDS_MAX = 100;
/** A guild's search index is ready this long after its first message (the sandbox's model; by the platform clock). */
export const MESSAGE_SEARCH_INDEX_DELAY_MS = 60 * 1000;
/**
 * Forwards (values not shown by the spec; the sandbox's): per user, at most 5 forwards and
 * 50 MiB of forwarded attachments per minute by the platform clock, else 429.
 */
export const FORWARD_WINDOW_MS = 60 * 1000;
export const FORWARDS_PER_WINDOW_MAX = 5;
export const FORWARD_ATTACHMENT_BYTES_PER_WINDOW_MAX = 50 * 1024 * 1024;
/** AutoMod keyword rule (public docs): up to 1000 keywords of up to 60 characters. */
export const AUTOMOD_KEYWORDS_MAX = 1000;
export const AUTOMOD_KEYWORD_MAX = 60;
/** Voice gateway: versions the `v` query may name (below 4 only until 2024-11-18), and the first with buffered resume. */
export const VOICE_GATEWAY_VERSION_MIN = 1;
export const VOICE_GATEWAY_VERSION_SUPPORTED_MIN = 4;
export const VOICE_GATEWAY_VERSION_MAX = 8;
export const VOICE_GATEWAY_BUFFERED_RESUME_VERSION = 8;
/** Voice gateway heartbeat interval sent in Hello (the platform's voice servers send 13750). */
export const VOICE_HEARTBEAT_INTERVAL_MS = 13_750;
/** Voice gateway (v8): numbered messages a session keeps for a resume until the client acknowledges them. */
export const VOICE_RESUME_BUFFER_MAX = 1000;
/** Voice gateway: sequence numbers have a fixed bit length (16 bits) and wrap around. */
export const VOICE_SEQ_MODULUS = 65_536;
/** Voice gateway: how long a dropped voice session waits for a Resume before it ends (real time). */
export const VOICE_RESUME_WINDOW_MS = 60_000;
/** Voice gateway: the highest DAVE (end-to-end encryption) protocol version it negotiates. */
export const VOICE_DAVE_PROTOCOL_VERSION = 1;
/** Voice Session Description: bytes of the transport `secret_key`. */
export const VOICE_SECRET_KEY_BYTES = 32;
/**
 * Voice gateway (platformpp's media extension): characters in one relayed peer signal (an SDP
 * offer or answer, or an ICE candidate) or one E2EE key exchange message. An SDP offer for one
 * audio track is about 1-3 KB; the bound keeps one client from flooding the others.
 */
export const VOICE_RELAY_MESSAGE_MAX = 16_384;
/** Voice activity: the threshold of `Call::SetVADThreshold`, in dBFS: from -100 to 0, -60 unless set (public SDK). */
export const VOICE_VAD_THRESHOLD_MIN_DB = -100;
export const VOICE_VAD_THRESHOLD_MAX_DB = 0;
export const VOICE_VAD_THRESHOLD_DEFAULT_DB = -60;
/**
 * Voice activity: how long the level may stay under the threshold before a speaker stops
 * (the gaps between syllables, or between the fake microphone's beeps, are not silence).
 */
export const VOICE_VAD_HOLD_MS = 400;
/** Voice activity: how often the input level is measured. */
export const VOICE_VAD_INTERVAL_MS = 20;
/**
 * Speaking (op 5) a client sends at most once per this interval (the latest state wins): the
 * voice gateway counts every payload against GATEWAY_SEND_LIMIT, and signaling needs its share.
 */
export const VOICE_SPEAKING_MIN_INTERVAL_MS = 1000;
/** E2EE: the sender keys of one participant a receiver keeps (the current one and those before it, for frames in flight). */
export const VOICE_E2EE_RECEIVE_KEYS_KEPT = 3;
/** SDK calls: the playout volume of a participant (`Call::SetParticipantVolume`), 100 being unchanged. */
export const SDK_PARTICIPANT_VOLUME_MAX = 200;
/** SDK audio: microphone volume (`Client::SetInputVolume`) from 0 to 100 and speaker volume (`SetOutputVolume`) from 0 to 200 percent. */
export const SDK_INPUT_VOLUME_MAX = 100;
export const SDK_OUTPUT_VOLUME_MAX = 200;
/** SDK calls: a call that is not Connected this long after `startCall` ends in Disconnected (JoinTimeout). */
export const SDK_CALL_JOIN_TIMEOUT_MS = 15_000;
/** SDK calls: reconnect attempts after the voice socket dropped, before the call ends in Disconnected. */
export const SDK_CALL_RECONNECT_ATTEMPTS = 3;

/**
 * Application commands (the public reference): names 1-32 characters, CHAT_INPUT descriptions
 * 1-100, up to 25 options (and 25 choices, names up to 100, string values up to 100), string
 * options between 0 and 6000 characters; 100 CHAT_INPUT commands per scope.
 */
export const COMMAND_NAME_MAX = 32;
export const COMMAND_DESCRIPTION_MAX = 100;
export const COMMAND_OPTIONS_MAX = 25;
export const COMMAND_CHOICES_MAX = 25;
export const COMMAND_CHOICE_TEXT_MAX = 100;
export const COMMAND_OPTION_LENGTH_MAX = 6000;
export const CHAT_INPUT_COMMANDS_MAX = 100;
/**
 * Interactions (public docs): the initial response within 3 s of the interaction, the token
 * valid 15 minutes (both by the platform clock); autocomplete answers up to 25 choices.
 */
export const INTERACTION_RESPONSE_WINDOW_MS = 3000;
export const INTERACTION_TOKEN_TTL_MS = 15 * 60 * 1000;
export const AUTOCOMPLETE_CHOICES_MAX = 25;
/**
 * Modals (public component reference): a title of up to 45 characters, 1 to 5 top-level
 * components; Label texts up to 45 (description 100); Text Input values up to 4000 characters;
 * Radio Groups of 2 to 10 options, Checkbox Groups of 1 to 10.
 */
export const MODAL_TITLE_MAX = 45;
export const MODAL_COMPONENTS_MAX = 5;
export const LABEL_TEXT_MAX = 45;
export const LABEL_DESCRIPTION_MAX = 100;
export const TEXT_INPUT_LENGTH_MAX = 4000;
export const RADIO_GROUP_OPTIONS_MIN = 2;
export const RADIO_GROUP_OPTIONS_MAX = 10;
export const CHECKBOX_GROUP_OPTIONS_MAX = 10;
/**
 * `POST /sandbox/interactions` carries submitted files as base64 in its JSON body (ATTACHMENT
 * options, File Upload values): it reads up to this much, more than the API's own JSON bodies,
 * so that files up to the largest upload limits can be simulated.
 */
export const SANDBOX_INTERACTION_BODY_MAX_BYTES = 256 * 1024 * 1024;

/** URL mappings of one application (not shown by the spec; the sandbox's bound). */
export const URL_MAPPINGS_MAX = 100;

/**
 * The instants `PUT /sandbox/clock` accepts: from the platform epoch (2015-01-01, where the
 * snowflake's time field starts) to the last millisecond of 2099 (well inside the 42 bits of
 * that field, which end in 2154).
 */
export const SANDBOX_CLOCK_MIN_MS = Date.UTC(2015, 0, 1);
export const SANDBOX_CLOCK_MAX_MS = Date.UTC(2100, 0, 1) - 1;
/**
 * Fixture sets (`/sandbox/fixture-sets/{name}`, not shown by the spec; the sandbox's bounds): a
 * name of lower-case letters, digits, `.`, `_` and `-` up to 64 characters, and a value of at
 * most 64 KiB of JSON: a record of ids, not the data itself.
 */
export const FIXTURE_SET_NAME_MAX = 64;
export const FIXTURE_SET_VALUE_MAX_BYTES = 64 * 1024;
/** An application's `flags` as a number (the spec: a 32-bit integer); as a decimal string, the full 64-bit set (`flags_new`). */
export const APPLICATION_FLAGS_NUMBER_MAX = 2 ** 32 - 1;

/**
 * Embedded-app RPC commands' own bounds, from the public embedded-app SDK's schemas: GET_USER's
 * `id` up to 64 characters; INVITE_USER_EMBEDDED's `content` up to 1024; SHARE_INTERACTION's
 * `content` up to 2000, up to 5 buttons per action row, button labels up to 80 and custom ids
 * up to 100; OPEN_SHARE_MOMENT_DIALOG's `mediaUrl` up to 1024.
 */
export const RPC_GET_USER_ID_MAX = 64;
export const RPC_INVITE_CONTENT_MAX = 1024;
export const RPC_SHARE_INTERACTION_CONTENT_MAX = 2000;
export const RPC_SHARE_BUTTONS_PER_ROW_MAX = 5;
export const RPC_SHARE_BUTTON_LABEL_MAX = 80;
export const RPC_SHARE_BUTTON_CUSTOM_ID_MAX = 100;
export const RPC_SHARE_MEDIA_URL_MAX = 1024;
/**
 * Quests as sandbox records (their bounds are the sandbox's): a name up to 100 characters, and
 * the play a quest asks for from 1 second to a day, 15 minutes unless the sandbox says otherwise.
 */
export const QUEST_NAME_MAX = 100;
export const QUEST_PLAY_SECONDS_DEFAULT = 900;
export const QUEST_PLAY_SECONDS_MAX = 86_400;
/**
 * A proxy ticket (REQUEST_PROXY_TICKET_REFRESH) lets an activity's frame through the URL-mapping
 * proxy for an hour by the platform clock (the platform's lifetime is not shown; the sandbox's).
 */
export const PROXY_TICKET_TTL_MS = 60 * 60 * 1000;
/**
 * A join the user made waits this long for the activity to subscribe to ACTIVITY_JOIN (the
 * client launches the activity first); an older one is stale and is not delivered.
 */
export const ACTIVITY_JOIN_PENDING_MS = 5 * 60 * 1000;
/** Images INITIATE_IMAGE_UPLOAD takes (the platform client's file picker accepts these). */
export const IMAGE_UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const;
/**
 * How long a client shows that someone is typing after their TYPING_START, unless their message
 * arrives first (the public API's Trigger Typing Indicator: "about 10 seconds").
 */
export const TYPING_INDICATOR_MS = 10_000;
/**
 * HTTP rate limits (when a sandbox has them on): the platform's global limit, 50 requests per
 * second per bot (published), and a route bucket's size and window, which the platform does not
 * publish per route: the sandbox's choice is 5 requests per 5 s, as the platform's message routes
 * answer in their headers; `PUT /sandbox/rate-limits` changes both.
 */
export const RATE_LIMIT_GLOBAL_PER_SECOND = 50;
export const RATE_LIMIT_ROUTE_DEFAULT = 5;
export const RATE_LIMIT_ROUTE_WINDOW_MS_DEFAULT = 5_000;
/**
 * The platform's invalid-request limit (published): an IP whose requests are answered 401, 403 or
 * 429 (except a 429 of scope `shared`) 10,000 times in 10 minutes is restricted for a while. Here
 * the sandbox counts as one IP, and its restriction lasts until the window ends (the platform does
 * not publish how long its own lasts); `PUT /sandbox/rate-limits` changes both numbers.
 */
export const INVALID_REQUEST_LIMIT_DEFAULT = 10_000;
export const INVALID_REQUEST_WINDOW_MS_DEFAULT = 600_000;
/** What `PUT /sandbox/rate-limits` accepts as the invalid-request limit: 1 to 100,000 answers per window. */
export const INVALID_REQUEST_LIMIT_MAX = 100_000;
/** What `PUT /sandbox/rate-limits` accepts: a bucket of 1 to 10,000 requests, a window of 0.1 s to an hour. */
export const RATE_LIMIT_BUCKET_MAX = 10_000;
export const RATE_LIMIT_WINDOW_MS_MIN = 100;
export const RATE_LIMIT_WINDOW_MS_MAX = 3_600_000;
/** Faults on demand: an HTTP or webhook fault applies to at most this many requests or deliveries. */
export const FAULT_COUNT_MAX = 100;
/** Faults on demand: the longest delay of an HTTP request, and the longest hold of a session's dispatches. */
export const FAULT_DELAY_MS_MAX = 60_000;
export const FAULT_HOLD_MS_MAX = 300_000;
/** Faults on demand: a 429 fault's `retry_after` at most, in seconds. */
export const FAULT_RETRY_AFTER_MAX = 60;
/** Faults on demand: how many injected faults `GET /sandbox/faults` remembers (a reset forgets them all). */
export const FAULT_HISTORY_MAX = 50;

// Guild settings (the platform's public docs and its official API description).
/** A welcome screen's description, in characters. */
export const WELCOME_SCREEN_DESCRIPTION_MAX = 140;
/** Channels a welcome screen shows. */
export const WELCOME_SCREEN_CHANNELS_MAX = 5;
/** A welcome screen channel's description, in characters (1 at least). */
export const WELCOME_CHANNEL_DESCRIPTION_MAX = 50;
/** Onboarding prompts of a guild. */
export const ONBOARDING_PROMPTS_MAX = 15;
/** Options of one onboarding prompt (1 at least). */
export const ONBOARDING_OPTIONS_MAX = 50;
/** An onboarding prompt's title, in characters (1 at least). */
export const ONBOARDING_PROMPT_TITLE_MAX = 100;
/** An onboarding option's title, in characters (1 at least). */
export const ONBOARDING_OPTION_TITLE_MAX = 50;
/** An onboarding option's description, in characters. */
export const ONBOARDING_OPTION_DESCRIPTION_MAX = 100;
/** Roles, and channels, one onboarding option grants. */
export const ONBOARDING_OPTION_IDS_MAX = 50;
/** Default channels of onboarding. */
export const ONBOARDING_DEFAULT_CHANNELS_MAX = 500;
/** Enabled onboarding needs at least this many default channels... */
export const ONBOARDING_DEFAULT_CHANNELS_MIN = 7;
/** ...of which at least this many @everyone may send messages in. */
export const ONBOARDING_SENDABLE_CHANNELS_MIN = 5;
/** How far ahead incident actions may pause invites or DMs: 24 hours. */
export const INCIDENT_ACTION_MAX_MS = 24 * 60 * 60 * 1000;
/** Users one bulk-add or bulk-delete of invite target users names. */
export const INVITE_TARGET_USERS_BULK_MAX = 1000;
/** Integrations Get Guild Integrations answers at most. */
export const GUILD_INTEGRATIONS_MAX = 50;
/** Online members a guild widget lists at most. */
export const WIDGET_MEMBERS_MAX = 100;
/** `PATCH /applications/@me`: characters of the description, tags and characters of a tag. */
export const APPLICATION_DESCRIPTION_MAX = 400;
export const APPLICATION_TAGS_MAX = 5;
export const APPLICATION_TAG_MAX = 20;
/** Permissions of one application command in a guild. */
export const COMMAND_PERMISSIONS_MAX = 100;
/** Role connections: metadata records per application, and the lengths the docs give. */
export const ROLE_CONNECTION_METADATA_MAX = 5;
export const ROLE_CONNECTION_KEY_MAX = 50;
export const ROLE_CONNECTION_NAME_MAX = 100;
export const ROLE_CONNECTION_DESCRIPTION_MAX = 200;
export const ROLE_CONNECTION_PLATFORM_NAME_MAX = 50;
export const ROLE_CONNECTION_PLATFORM_USERNAME_MAX = 100;
export const ROLE_CONNECTION_VALUE_MAX = 100;
/** Threads: a name of 1 to 100 characters; the auto-archive durations a thread takes (minutes). */
export const THREAD_NAME_MAX = 100;
export const THREAD_AUTO_ARCHIVE_DURATIONS = [60, 1440, 4320, 10080] as const;
/** Threads: the auto-archive duration of a thread that names none (a day). */
export const THREAD_AUTO_ARCHIVE_DEFAULT = 1440;
/** Threads: at most 1000 active threads per guild (400 160006 past it). */
export const ACTIVE_THREADS_MAX = 1000;
/** List Thread Members: 1 to 100 per page (100 unless asked). */
export const THREAD_MEMBERS_PAGE_MAX = 100;
/** Archived thread lists: 1 to 100 per page (50 unless asked). */
export const ARCHIVED_THREADS_PAGE_MAX = 100;
export const ARCHIVED_THREADS_PAGE_DEFAULT = 50;
/**
 * Group DMs (the public API reference): a group DM holds at most 10 users, its creator included
 * (30004 past it), and Create Group DM is limited to 10 active group DMs per application (30011).
 * Names are 1 to 100 characters; history pages as a channel's do (1-100, 50 unless asked).
 */
export const GROUP_DM_RECIPIENTS_MAX = 10;
export const GROUP_DMS_ACTIVE_MAX = 10;
export const GROUP_DM_NAME_MAX = 100;
