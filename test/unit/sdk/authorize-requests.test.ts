// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { AuthorizationArgs } from '../../../src/sdk/authorization-args';
import { postAuthorizeRequest, SDK_IPC_CHANNEL, type AuthorizeRequest } from '../../../src/sdk/authorize-requests';
import { Client } from '../../../src/sdk/client';
import { Status } from '../../../src/sdk/status';
import { createSdkHarness, type SdkHarness } from './sdk-harness';

let h: SdkHarness;
afterEach(async () => {
  await h?.close();
});

/** Lets the BroadcastChannel deliver what was posted (it is asynchronous). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('AUTHORIZE_REQUEST from the host platform client (RegisterAuthorizeRequestCallback)', () => {
  it('a request the host posts for this game and user reaches the callback, before the game holds any token', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    const seen: AuthorizeRequest[] = [];
    client.registerAuthorizeRequestCallback((request) => seen.push(request));
    postAuthorizeRequest({ applicationId: h.world.application.id, userId: h.world.alice.id });
    await h.until(() => seen.length === 1, 'the request');
    expect(seen).toEqual([{ applicationId: h.world.application.id, userId: h.world.alice.id }]);
  });

  it("requests for another application or another user are not this game's", async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    const seen: AuthorizeRequest[] = [];
    client.registerAuthorizeRequestCallback((request) => seen.push(request));
    postAuthorizeRequest({ applicationId: '999999999999999999' });
    postAuthorizeRequest({ applicationId: h.world.application.id, userId: h.world.bob.id });
    const stray = new BroadcastChannel(SDK_IPC_CHANNEL);
    stray.postMessage({ type: 'AUTHORIZE_REQUEST', application_id: 42 });
    stray.postMessage('garbage');
    stray.close();
    await settle();
    expect(seen).toEqual([]);
    postAuthorizeRequest({ applicationId: h.world.application.id });
    await h.until(() => seen.length === 1, 'the request for any user');
  });

  it('re-subscribes after a disconnect and reconnect: the registered callback keeps receiving requests', async () => {
    h = await createSdkHarness();
    const { client } = await h.readyClient(h.world.alice);
    let count = 0;
    client.registerAuthorizeRequestCallback(() => count++);
    const ask = async (expected: number) => {
      postAuthorizeRequest({ applicationId: h.world.application.id, userId: h.world.alice.id });
      await h.until(() => count === expected, `request ${expected}`);
    };
    await ask(1);
    await client.disconnect();
    expect(client.getStatus()).toBe(Status.Disconnected);
    await client.connect();
    await ask(2);
    // The gateway drops the socket: the client reconnects and resumes, and requests still arrive.
    h.sockets.at(-1)!.serverClose(4000);
    await h.until(() => client.getStatus() === Status.Ready && h.sockets.length === 3, 'the resumed connection');
    await ask(3);
  });

  it('RemoveAuthorizeRequestCallback stops delivery', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    let count = 0;
    client.registerAuthorizeRequestCallback(() => count++);
    client.removeAuthorizeRequestCallback();
    postAuthorizeRequest({ applicationId: h.world.application.id });
    await settle();
    expect(count).toBe(0);
  });

  it('the usual answer to a request: the game authorizes, and the consent dialog asks the user', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    const codes: string[] = [];
    client.registerAuthorizeRequestCallback(() => {
      const args = new AuthorizationArgs();
      args.setScopes(Client.getDefaultPresenceScopes());
      void client.authorize(args).then((result) => codes.push(result.code));
    });
    postAuthorizeRequest({ applicationId: h.world.application.id, userId: h.world.alice.id });
    await h.until(() => codes.length === 1, 'the authorization');
    expect(h.consents[0].scopes).toEqual(['openid', 'sdk.social_layer_presence']);
  });
});
