/**
 * An RPC host over the platform app on fake-indexeddb, driven as an activity iframe would:
 * `await activity.handshake(); await activity.command('GET_CHANNEL', {channel_id})`.
 */
import { RpcHost, type DropReason, type ReceivedMessage, type RpcHostOptions } from '../../../src/rpc/host';
import type { FrameInfo, HostUi, ShareRequest } from '../../../src/rpc/context';
import { ActivityInstanceRegistry, type InstanceSnapshot } from '../../../src/rpc/instances';
import { PlatformClient } from '../../../src/rpc/platform-client';
import { OPCODES, type RpcMessage, type RpcParticipant } from '../../../src/rpc/protocol';
import { createTestClient, createWorld, type TestClient } from '../app-harness';

/** The origin activity pages are served from in these tests. */
export const ACTIVITY_ORIGIN = 'http://platform.test';

/** A user object as the registry and the host hold it. */
export function participant(user: { id: string; username: string; global_name?: string | null }): RpcParticipant {
  return {
    id: user.id,
    username: user.username,
    discriminator: '0',
    global_name: user.global_name ?? null,
    avatar: null,
    bot: false,
    flags: 0,
    premium_type: null,
  };
}

/** The world of createWorld plus a guild owned by alice (bob a member) and its channels. */
export async function createRpcWorld(
  scopes = 'identify guilds guilds.members.read rpc.activities.write rpc.voice.read',
) {
  const client = await createTestClient();
  const world = await createWorld(client, scopes);
  const created = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body;
  await client.put(`/sandbox/guilds/${created.guild.id}/members/${world.bob.id}`, {});
  const text = created.channels.find((c: { type: number }) => c.type === 0);
  const voice = created.channels.find((c: { type: number }) => c.type === 2);
  return { client, ...world, guild: created.guild, text, voice };
}

/** What the fake host UI was asked. */
export interface UiLog {
  consents: { application: { id: string; name: string }; scopes: string[]; user: { id: string; username: string } }[];
  links: string[];
  invites: FrameInfo[];
  shares: { message: string; custom_id?: string; link_id?: string; url: string }[];
  logs: [string, string][];
  /** What the image picker, the share dialog and the invite dialog were asked. */
  images: { application: { id: string; name: string } }[];
  shareDialogs: ShareRequest[];
  inviteDialogs: { application: { id: string; name: string }; user: { id: string }; content?: string }[];
  backgroundErrors: [string, { code: number; message: string }][];
}

/** An activity frame's view of a host: what it sends, what it received. */
export interface ActivityDouble {
  host: RpcHost;
  sent: RpcMessage[];
  drops: DropReason[];
  closes: unknown[];
  ui: UiLog;
  frame: FrameInfo;
  window: object;
  /** Posts a message as the iframe would (or as `from` says). */
  post(data: unknown, from?: Partial<ReceivedMessage>): boolean;
  handshake(overrides?: Record<string, unknown>): RpcMessage | undefined;
  /** Sends a command FRAME and resolves with the host's reply payload. */
  command(
    cmd: string,
    args?: unknown,
    evt?: string,
  ): Promise<{ cmd: string; nonce: string | null; evt: string | null; data: any }>;
  /** The DISPATCH frames received for `evt`. */
  dispatched(evt: string): any[];
  /** AUTHENTICATE with `token` (after a handshake). */
  authenticate(token: string): Promise<any>;
}

let frames = 0;

/** A host for a frame of `applicationId` run by `user`, with a fake UI whose answers `ui` may set. */
export function createActivity(
  client: TestClient,
  options: {
    applicationId: string;
    user: RpcParticipant;
    guildId: string | null;
    channelId: string;
    registry?: ActivityInstanceRegistry;
    ui?: Partial<HostUi>;
    log?: (line: string) => void;
    watchSpeaking?: RpcHostOptions['watchSpeaking'];
  },
): ActivityDouble {
  const registry = options.registry ?? new ActivityInstanceRegistry();
  const frameId = `frame-${++frames}`;
  let instance: InstanceSnapshot;
  const sent: RpcMessage[] = [];
  const waiters = new Set<() => void>();
  const ui: UiLog = {
    consents: [],
    links: [],
    invites: [],
    shares: [],
    logs: [],
    images: [],
    shareDialogs: [],
    inviteDialogs: [],
    backgroundErrors: [],
  };
  const hostUi: HostUi = {
    requestConsent: async (o) => (ui.consents.push(o), true),
    openExternalLink: async (url) => (ui.links.push(url), true),
    openInviteDialog: async (f) => void ui.invites.push(f),
    shareLink: async (r) => (ui.shares.push(r), { success: true, didCopyLink: true, didSendMessage: false }),
    captureLog: (level, message) => void ui.logs.push([level, message]),
    hardwareAcceleration: async () => true,
    locale: () => 'en-US',
    // Dialogs answer "cancel" unless a test says otherwise.
    pickImage: async (r) => (ui.images.push(r), null),
    chooseShareTarget: async (r) => (ui.shareDialogs.push(r), null),
    confirmActivityInvite: async (r) => (ui.inviteDialogs.push(r), false),
    backgroundError: (cmd, error) => void ui.backgroundErrors.push([cmd, error]),
  };
  for (const [name, value] of Object.entries(options.ui ?? {}))
    if (value !== undefined) (hostUi as unknown as Record<string, unknown>)[name] = value;
  const window = { name: `iframe window ${frameId}` };
  const double: ActivityDouble = {
    sent,
    drops: [],
    closes: [],
    ui,
    window,
    frame: undefined as unknown as FrameInfo,
    host: undefined as unknown as RpcHost,
    post: (data, from = {}) => double.host.receive({ source: window, origin: ACTIVITY_ORIGIN, data, ...from }),
    handshake(overrides = {}) {
      const before = sent.length;
      double.post([
        OPCODES.HANDSHAKE,
        { v: 1, encoding: 'json', client_id: options.applicationId, frame_id: frameId, ...overrides },
      ]);
      return sent[before];
    },
    async command(cmd, args, evt) {
      const nonce = crypto.randomUUID();
      double.post([OPCODES.FRAME, { cmd, args, nonce, ...(evt ? { evt } : {}) }]);
      const find = () => sent.find((m) => m[0] === OPCODES.FRAME && (m[1] as { nonce: unknown }).nonce === nonce);
      while (!find()) await new Promise<void>((resolve) => waiters.add(resolve));
      return find()![1] as any;
    },
    dispatched: (evt) =>
      sent
        .filter(
          (m) =>
            m[0] === OPCODES.FRAME &&
            (m[1] as { cmd: string }).cmd === 'DISPATCH' &&
            (m[1] as { evt: string }).evt === evt,
        )
        .map((m) => (m[1] as { data: unknown }).data),
    authenticate: async (token) => (await double.command('AUTHENTICATE', { access_token: token })).data,
  };
  instance = registry.join(
    {
      application_id: options.applicationId,
      channel_id: options.channelId,
      guild_id: options.guildId,
      frame_id: frameId,
      user: options.user,
    },
    (snapshot) => {
      instance = snapshot;
      double.host.participantsChanged(snapshot.participants);
    },
  );
  double.frame = {
    frame_id: frameId,
    application_id: options.applicationId,
    instance_id: instance.instance_id,
    guild_id: options.guildId,
    channel_id: options.channelId,
    platform: 'desktop',
    user: options.user,
    url: `${ACTIVITY_ORIGIN}/activities/${options.applicationId}/`,
  };
  double.host = new RpcHost({
    frame: double.frame,
    source: window,
    origin: ACTIVITY_ORIGIN,
    post: (message) => {
      sent.push(structuredClone(message));
      for (const wake of [...waiters]) wake();
      waiters.clear();
    },
    platform: new PlatformClient((request) => client.app.fetch(request), ACTIVITY_ORIGIN),
    ui: hostUi,
    participants: () => instance.participants,
    apiEndpoint: '//platform.test/api',
    onDrop: (reason) => void double.drops.push(reason),
    onClose: (payload) => void double.closes.push(payload),
    log: options.log,
    watchSpeaking: options.watchSpeaking,
  });
  return double;
}

/** Exchanges an authorization code at `/oauth2/token` as an activity's server would. */
export async function exchangeCode(client: TestClient, applicationId: string, clientSecret: string, code: string) {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    client_id: applicationId,
    client_secret: clientSecret,
  });
  return client.request('POST', '/oauth2/token', {
    raw: form.toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
}
