/**
 * The sandbox's account fixtures (CONTRACT §3): users and applications with their bots. Each is
 * one committed write; an application's secrets are answered once and stored only as hashes.
 */
import { write } from '../../store/write';
import type { ApplicationRecord, UserRecord } from '../../store/records/core';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { generateBotToken, generateSecret, hashSecret } from '../core/secrets';

/** A new user (or bot user). */
export async function createUser(
  ctx: PlatformContext,
  input: {
    username: string;
    global_name?: string | null;
    premium_type?: 0 | 1 | 2 | 3;
    bot?: boolean;
    provisional?: boolean;
  },
): Promise<UserRecord> {
  const user: UserRecord = {
    id: ctx.ids.next(),
    username: input.username,
    global_name: input.global_name ?? null,
    discriminator: '0',
    avatar: null,
    bot: input.bot ?? false,
    premium_type: input.premium_type ?? 0,
    primary_guild: null,
    provisional: input.provisional ?? false,
    created_at: ctx.clock.now(),
  };
  await write(ctx, ['users'], async (tx) => {
    await tx.store('users').add(user);
  });
  return user;
}

/**
 * A new application, its bot user, and its secrets (answered once, stored only as hashes).
 * `id` and `client_secret` let a developer keep the values of their own `.env`
 * (`VITE_CLIENT_ID`, `CLIENT_SECRET`); an id some application or user already has is refused.
 */
export async function createApplication(
  ctx: PlatformContext,
  input: {
    name: string;
    owner_id?: string;
    flags?: number | string;
    bot_public?: boolean;
    id?: string;
    client_secret?: string;
  },
): Promise<{ application: ApplicationRecord; bot: UserRecord; bot_token: string; client_secret: string }> {
  const id = input.id ?? ctx.ids.next();
  const botId = ctx.ids.next();
  const botToken = generateBotToken(botId);
  const clientSecret = input.client_secret ?? generateSecret(24);
  const [botTokenHash, secretHash] = await Promise.all([hashSecret(botToken), hashSecret(clientSecret)]);
  const now = ctx.clock.now();
  const bot: UserRecord = {
    id: botId,
    username: input.name.toLowerCase().replace(/[^a-z0-9_.]/g, '') || 'bot',
    global_name: input.name,
    discriminator: '0',
    avatar: null,
    bot: true,
    premium_type: 0,
    primary_guild: null,
    provisional: false,
    created_at: now,
  };
  const application: ApplicationRecord = {
    id,
    name: input.name,
    description: '',
    owner_id: input.owner_id ?? null,
    bot_user_id: botId,
    bot_public: input.bot_public ?? true,
    bot_require_code_grant: false,
    flags: String(BigInt(input.flags ?? 0)),
    bot_token_hash: botTokenHash,
    client_secret_hash: secretHash,
    redirect_uris: [],
    integration_types_config: { '0': {}, '1': {} },
    approximate_user_install_count: 0,
    approvals: { identify_premium: false, sdk_terms_accepted: false, privileged_intents_approved: false },
    channel_obfuscation: false,
    created_at: now,
  };
  await write(ctx, ['users', 'applications'], async (tx) => {
    if (input.owner_id && !(await tx.store('users').get(input.owner_id)))
      throw ApiError.invalidForm({ owner_id: 'Unknown user.' });
    if (input.id && ((await tx.store('applications').get(id)) || (await tx.store('users').get(id))))
      throw ApiError.invalidForm({
        id: 'This id is taken: an application or user of the sandbox has it already. Reset the sandbox or choose another id.',
      });
    await tx.store('users').add(bot);
    await tx.store('applications').add(application);
  });
  return { application, bot, bot_token: botToken, client_secret: clientSecret };
}

/**
 * A user the sandbox knows (the simulated client shows who runs an activity before any token
 * exists); 404 (10013) when there is none.
 */
export async function getSandboxUser(ctx: PlatformContext, userId: string): Promise<UserRecord> {
  const user = await ctx.db.get('users', userId);
  if (!user) throw ApiError.of('UNKNOWN_USER');
  return user;
}
