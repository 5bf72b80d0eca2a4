/**
 * Proxy tickets (REQUEST_PROXY_TICKET_REFRESH): what lets an activity's frame through the
 * platform's URL-mapping proxy. The platform puts one in the activity's page URL as
 * `discord_proxy_ticket`; when it expires the activity asks for a fresh one. A ticket names its
 * application and user, lasts {@link PROXY_TICKET_TTL_MS} by the platform clock, and is stored
 * only as its hash. Minting one drops the user's expired tickets of that application.
 */
import { write } from '../../store/write';
import type { BearerPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { PROXY_TICKET_TTL_MS } from '../core/limits';
import { generateSecret, hashSecret } from '../core/secrets';

/** Where the proxy reads a ticket: this query parameter, of the request or of the page that sent it. */
export const PROXY_TICKET_PARAM = 'discord_proxy_ticket';

/**
 * A fresh ticket for the token's user and application.
 * @example const { ticket } = await mintProxyTicket(ctx, principal);
 */
export async function mintProxyTicket(ctx: PlatformContext, principal: BearerPrincipal): Promise<{ ticket: string }> {
  const ticket = `pt.${generateSecret(32)}`;
  const ticketHash = await hashSecret(ticket);
  const applicationId = principal.application.id;
  const userId = principal.user.id;
  await write(ctx, ['proxy_tickets'], async (tx) => {
    const now = ctx.clock.now();
    const store = tx.store('proxy_tickets');
    for (const old of await store.index('by_user_application').getAll([applicationId, userId]))
      if (old.expires_at <= now) await store.delete(old.ticket_hash);
    await store.add({
      ticket_hash: ticketHash,
      application_id: applicationId,
      user_id: userId,
      expires_at: now + PROXY_TICKET_TTL_MS,
      created_at: now,
    });
  });
  return { ticket };
}

/**
 * Whether `ticket` lets a request through the proxy for `applicationId` now: a ticket the
 * platform made for that application that has not expired. Null when it does not.
 */
export async function proxyTicketHolder(
  ctx: PlatformContext,
  ticket: string,
  applicationId: string | null,
): Promise<{ application_id: string; user_id: string } | null> {
  const record = await ctx.db.get('proxy_tickets', await hashSecret(ticket));
  if (!record || record.expires_at <= ctx.clock.now()) return null;
  if (applicationId !== null && record.application_id !== applicationId) return null;
  return { application_id: record.application_id, user_id: record.user_id };
}
