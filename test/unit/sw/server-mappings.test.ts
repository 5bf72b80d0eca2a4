// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { forwardMappedOnServer } from '../../../sw/server-mappings';
import { createTestClient } from '../app-harness';

/** The page's origin (the page joined the server under test; its own origin is another). */
const PAGE = 'http://laptop.test:5173';

/** A server with one application whose mappings send `/backend` to the developer's machine. */
async function setup() {
  const client = await createTestClient();
  const app = (await client.post('/sandbox/applications', { name: 'Mapped' })).body.application;
  await client.put(`/sandbox/applications/${app.id}/url-mappings`, {
    url_mappings: [{ prefix: '/backend', target: 'http://localhost:3001' }],
  });
  const reached: { method: string; url: string; body: string }[] = [];
  const target = async (request: Request) => {
    reached.push({ method: request.method, url: request.url, body: await request.text() });
    return Response.json({ from: 'backend' });
  };
  const server = { url: client.origin, gateway_url: 'ws://unused' };
  const viaServer = (request: Request) => forwardMappedOnServer(request, server, (r) => client.fetch(r), target);
  return { client, app, reached, viaServer };
}

describe('the activity proxy for a page on a server: the server says where, the page forwards', () => {
  it("a /.proxy request of an activity frame goes to the server's mapping target (a localhost backend), from the page", async () => {
    const { app, reached, viaServer } = await setup();
    const frame = `${PAGE}/activities/${app.id}/?frame_id=f&instance_id=i`;
    const answer = await viaServer(
      new Request(`${PAGE}/.proxy/backend/token?x=1`, { method: 'POST', body: 'code=abc', referrer: frame }),
    );
    expect(answer?.status).toBe(200);
    expect(await answer?.json()).toEqual({ from: 'backend' });
    expect(reached).toEqual([{ method: 'POST', url: 'http://localhost:3001/token?x=1', body: 'code=abc' }]);
  });

  it('a request no mapping of the server covers is not the proxy’s (undefined): it goes on as before', async () => {
    const { app, reached, viaServer } = await setup();
    const frame = `${PAGE}/activities/${app.id}/?frame_id=f&instance_id=i`;
    expect(await viaServer(new Request(`${PAGE}/.proxy/elsewhere/x`, { referrer: frame }))).toBeUndefined();
    expect(await viaServer(new Request(`${PAGE}/.proxy/api/v10/users/@me`, { referrer: frame }))).toBeUndefined();
    expect(reached).toEqual([]);
  });

  it('an unknown proxy ticket is refused by the server (401), and nothing reaches the target', async () => {
    const { app, reached, viaServer } = await setup();
    const frame = `${PAGE}/activities/${app.id}/?frame_id=f&instance_id=i&discord_proxy_ticket=pt.nope`;
    const answer = await viaServer(new Request(`${PAGE}/.proxy/backend/token`, { referrer: frame }));
    expect(answer?.status).toBe(401);
    expect(reached).toEqual([]);
  });

  it('POST /sandbox/url-mappings/resolve: a url that is no absolute http(s) URL is 400 (50035) naming it', async () => {
    const { client } = await setup();
    const reply = await client.post('/sandbox/url-mappings/resolve', { url: 'ftp://x/y', referrer: 'nope' });
    expect([reply.status, reply.body.code]).toEqual([400, 50035]);
    expect(reply.body.errors.url).toBeDefined();
    expect(reply.body.errors.referrer).toBeDefined();
  });
});
