/**
 * Group DM recipients, mounted at `/channels`: `PUT /{channel_id}/recipients/{user_id}`
 * (`{access_token, nick?}`: the user's token granted `gdm.join`; 204) and `DELETE` (204), for the
 * group DM's owner, a bot. Create Group DM shares `POST /users/@me/channels` with Create DM
 * (`direct-messages.ts`); a group DM's `GET` / `PATCH` / `DELETE` and messages go through the
 * channel routes. `POST /sandbox/group-dms` is the sandbox's fixture.
 */
import { Hono } from 'hono';
import { addRecipient, createSandboxGroupDm, removeRecipient } from '../../src/platform/group-dms/channels';
import { AddRecipientSchema, RecipientPathSchema, SandboxGroupDmSchema } from '../../src/platform/group-dms/schemas';
import { botOf, noContent, readJson, validate, type AppEnv } from '../http';

/** The recipient routes, mounted at `/channels`. */
export function groupDmRecipientRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.put('/:channel_id/recipients/:user_id', async (c) => {
    const principal = botOf(c);
    const body = await readJson(c, AddRecipientSchema);
    const { channel_id, user_id } = validate(RecipientPathSchema, c.req.param());
    await addRecipient(c.get('ctx'), principal, channel_id, user_id, body);
    return noContent();
  });
  r.delete('/:channel_id/recipients/:user_id', async (c) => {
    const principal = botOf(c);
    const { channel_id, user_id } = validate(RecipientPathSchema, c.req.param());
    await removeRecipient(c.get('ctx'), principal, channel_id, user_id);
    return noContent();
  });
  return r;
}

/** `POST /sandbox/group-dms`, mounted at `/sandbox`. */
export function sandboxGroupDmRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/group-dms', async (c) => {
    const body = await readJson(c, SandboxGroupDmSchema);
    return c.json({ channel: await createSandboxGroupDm(c.get('ctx'), body) }, 201);
  });
  return r;
}
