/**
 * "What the platform's clients do": the things a real client does to a running activity,
 * on demand. Each goes through the path the real event takes: a simulated participant joins
 * the instance registry as a frame does (ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE) and the voice call
 * where the activity runs as a real voice client does (`./voice-participant.ts`: a voice state,
 * then the voice gateway); a participant speaks by sending the voice server Speaking (op 5), which
 * the frames hear as SPEAKING_START / SPEAKING_STOP and the other clients in the call as op 5 (a
 * player joins the call the first time the cockpit makes them speak);
 * the layout mode and the locale are the frames' own properties (ACTIVITY_LAYOUT_MODE_UPDATE,
 * USER_SETTINGS_GET_LOCALE); the thermal state is the user's device in the sandbox (the gateway's
 * THERMAL_STATE_UPDATE); START_PURCHASE is answered by the frame's purchase dialog, and the
 * entitlement arrives as the platform's ENTITLEMENT_CREATE; the device decides the orientation
 * (ORIENTATION_UPDATE from the frame's size) and the platform; closing sends CLOSE.
 */
import { html, render } from 'lit';
import type { PlatformElement } from '../../components/platform-element';
import type { SandboxClient } from '../../components/sandbox-client';
import { InstanceMembership } from '../../components/instance-membership';
import { PlatformClient } from '../../rpc/platform-client';
import type { InstanceDirectory } from '../../rpc/instances';
import { DEVICES, type DeviceId } from './device-frames';
import { directMessagePlace, groupDmPlace } from './launch-places';
import { changeDevice, displayName, placeFrame, type Player } from './players';
import type { SandboxWorld } from './world';
import { randomUuid } from '../../wire/random-uuid';
import { VoiceParticipant } from './voice-participant';

/** How START_PURCHASE is answered. */
export type PurchaseAnswer = 'complete' | 'cancel';

/** What the panel holds. */
export interface ClientEventsState {
  layoutMode: 0 | 1 | 2;
  device: DeviceId;
  thermalState: 0 | 1 | 2 | 3;
  /** Empty: the browser's. */
  locale: string;
  purchase: PurchaseAnswer;
  /** Simulated participants in the instance, by user id. */
  simulated: Map<string, InstanceMembership>;
  /** Who speaks now, by user id. */
  speaking: Set<string>;
  /** The participants in the voice call (their voice clients, once joined), by user id. */
  voices: Map<string, Promise<VoiceParticipant>>;
  /** Where the activities run: the world's voice channel, a DM with a user (by username), or a group DM of every user. */
  launch: 'guild' | 'group-dm' | `dm:${string}`;
  /** What the last action did (or why it failed). */
  notice: string;
}

const LAYOUTS = [
  [0, 'Focused'],
  [1, 'Picture-in-picture'],
  [2, 'Grid'],
] as const;
const THERMAL = ['Nominal', 'Fair', 'Serious', 'Critical'] as const;

/**
 * The panel, rendered into `container`, acting on `players`.
 * @example new ClientEventsPanel(section, { players, world, sandbox, platform }).render();
 */
export class ClientEventsPanel {
  readonly state: ClientEventsState = {
    layoutMode: 0,
    device: 'desktop',
    thermalState: 0,
    locale: '',
    purchase: 'complete',
    simulated: new Map(),
    speaking: new Set(),
    voices: new Map(),
    launch: 'guild',
    notice: '',
  };

  constructor(
    private readonly container: HTMLElement,
    private readonly context: {
      /** The players the panel acts on (the panel adds those it adopts). */
      players: Player[];
      world: SandboxWorld;
      sandbox: SandboxClient;
      platform: PlatformElement;
    },
  ) {
    this.adopt(context.players);
  }

  /** Takes the players (those already there, and any added since): their purchases follow the panel. */
  adopt(players: readonly Player[]): void {
    for (const player of players) {
      if (!this.context.players.includes(player)) this.context.players.push(player);
      player.frame.confirmPurchase = async () => this.state.purchase === 'complete';
    }
    this.render();
  }

  /** Sets the layout mode of every player's frame. */
  setLayoutMode(mode: 0 | 1 | 2): void {
    this.state.layoutMode = mode;
    for (const { frame } of this.context.players) frame.layoutMode = mode;
    this.#done(`Layout: ${LAYOUTS[mode][1]}`);
  }

  /** Puts every player on `device` (a change of platform restarts the activities). */
  setDevice(device: DeviceId): void {
    this.state.device = device;
    for (const player of this.context.players) changeDevice(player, device);
    this.#done(`Device: ${DEVICES[device].label}`);
  }

  /** Sets the thermal state of every player's device. */
  async setThermalState(state: 0 | 1 | 2 | 3): Promise<void> {
    this.state.thermalState = state;
    await this.#act(`Thermal state: ${THERMAL[state]}`, () =>
      Promise.all(this.context.players.map((p) => this.context.sandbox.setThermalState(p.userId, state))),
    );
  }

  /** Sets every player's locale (empty: the browser's). */
  setLocale(locale: string): void {
    this.state.locale = locale.trim();
    for (const { frame } of this.context.players) frame.locale = this.state.locale || null;
    this.#done(`Locale: ${this.state.locale || `${navigator.language} (the browser's)`}`);
  }

  /** How the next START_PURCHASE is answered. */
  setPurchaseAnswer(answer: PurchaseAnswer): void {
    this.state.purchase = answer;
    this.#done(answer === 'complete' ? 'Purchases complete' : 'Purchases are cancelled');
  }

  /**
   * Makes `username` join the instance as a simulated participant (no activity of their own
   * runs), and the voice call where it runs.
   */
  async join(username: string): Promise<void> {
    const userId = this.context.world.users[username];
    const frame = this.context.players[0]?.frame;
    if (!userId || !frame?.applicationId || !frame.channelId || this.state.simulated.has(userId)) return;
    await this.#act(`${displayName(username)} joined`, async () => {
      const client = new PlatformClient((request) => fetch(request), location.origin);
      const membership = new InstanceMembership(
        () => this.context.platform.hub!.instances as unknown as InstanceDirectory,
        {
          application_id: frame.applicationId!,
          channel_id: frame.channelId!,
          guild_id: frame.guildId,
          frame_id: `simulated-${randomUuid()}`,
          user: await client.participant(userId),
        },
        () => undefined,
      );
      await membership.join();
      this.state.simulated.set(userId, membership);
      await this.#voiceOf(userId);
    });
  }

  /** Makes a simulated participant leave the instance, and the voice call. */
  async leave(userId: string): Promise<void> {
    this.state.simulated.get(userId)?.leave();
    this.state.simulated.delete(userId);
    this.state.speaking.delete(userId);
    await this.#act(`${this.#name(userId)} left`, () => this.#leaveCall(userId));
  }

  /**
   * `userId` starts or stops speaking in the players' voice call: their voice client (joined
   * now if they are not in the call yet) sends Speaking to the voice server.
   */
  async speak(userId: string, speaking: boolean): Promise<void> {
    if (speaking) this.state.speaking.add(userId);
    else this.state.speaking.delete(userId);
    this.render();
    await this.#act(`${this.#name(userId)} ${speaking ? 'speaks' : 'stopped speaking'}`, async () => {
      (await this.#voiceOf(userId)).speak(speaking);
    });
  }

  /** A SKU the activity can sell, for trying START_PURCHASE. */
  async addSku(): Promise<void> {
    await this.#act('SKU "Test pass" added (type 2, $1.99)', () =>
      this.context.sandbox.createSku(this.context.world.application_id, {
        name: 'Test pass',
        type: 2,
        flags: 1 << 2,
        price: { amount: 199, currency: 'usd' },
      }),
    );
  }

  /**
   * Launches the activities again in `place`: the guild's voice channel, a DM of the first
   * player with `dm:<username>` (the DM is opened as the platform opens one, by a first message),
   * or `group-dm`: the application's group DM of the first player with every other user.
   */
  async launchIn(place: ClientEventsState['launch']): Promise<void> {
    const { world, players, sandbox } = this.context;
    const done = { guild: 'Launched in the guild voice channel', 'group-dm': 'Launched in a group DM' } as const;
    await this.#act(place in done ? done[place as keyof typeof done] : 'Launched in a DM', async () => {
      const first = players[0].userId;
      const target =
        place === 'guild'
          ? { guild_id: world.guild_id, channel_id: world.channel_id }
          : place === 'group-dm'
            ? await groupDmPlace(sandbox, world, [first, ...Object.values(world.users).filter((id) => id !== first)])
            : await directMessagePlace(sandbox, world, first, world.users[place.slice(3)]);
      this.state.launch = place;
      // The players' client leaves the call it was in, as it does when it starts an activity elsewhere.
      await Promise.all(players.map((p) => this.#leaveCall(p.userId)));
      for (const { frame } of players) placeFrame(frame, target);
    });
  }

  /** Closes every player's activity (CLOSE, as the platform's client does when the user leaves it). */
  closeInstance(): void {
    for (const { frame } of this.context.players) frame.host?.close();
    this.#done('Activities closed');
  }

  /** Renders now. */
  render(): void {
    const { state, context } = this;
    const playing = new Set(context.players.map((p) => p.userId));
    const others = Object.entries(context.world.users).filter(([, id]) => !playing.has(id));
    const participants = [...context.players.map((p) => p.userId), ...state.simulated.keys()];
    render(
      html`<fieldset><legend>Participants</legend>
          <ul class="plain">${others.map(([name, id]) =>
            state.simulated.has(id)
              ? html`<li>${displayName(name)} <button type="button" @click=${() => this.leave(id)}>Leave</button></li>`
              : html`<li>${displayName(name)} <button type="button" @click=${() => this.join(name)}>Join the instance</button></li>`,
          )}</ul>
          <ul class="plain">${participants.map(
            (id) =>
              html`<li><button type="button" aria-pressed=${state.speaking.has(id) ? 'true' : 'false'} @click=${() => this.speak(id, !state.speaking.has(id))}>${this.#name(id)} speaks</button></li>`,
          )}</ul>
        </fieldset>
        <fieldset><legend>Layout mode</legend>
          ${LAYOUTS.map(([mode, label]) => html`<label><input type="radio" name="layout" .checked=${state.layoutMode === mode} @change=${() => this.setLayoutMode(mode)} />${label}</label>`)}
        </fieldset>
        <label>Device and platform
          <select @change=${(e: Event) => this.setDevice((e.target as HTMLSelectElement).value as DeviceId)}>
            ${(Object.keys(DEVICES) as DeviceId[]).map((id) => html`<option value=${id} ?selected=${state.device === id}>${DEVICES[id].label} (${DEVICES[id].platform})</option>`)}
          </select></label>
        <label>Thermal state
          <select @change=${(e: Event) => this.setThermalState(Number((e.target as HTMLSelectElement).value) as 0 | 1 | 2 | 3)}>
            ${THERMAL.map((label, i) => html`<option value=${i} ?selected=${state.thermalState === i}>${label}</option>`)}
          </select></label>
        <label>Locale <input type="text" placeholder=${navigator.language} .value=${state.locale} @change=${(e: Event) => this.setLocale((e.target as HTMLInputElement).value)} /></label>
        <fieldset><legend>START_PURCHASE</legend>
          <label><input type="radio" name="purchase" .checked=${state.purchase === 'complete'} @change=${() => this.setPurchaseAnswer('complete')} />Complete</label>
          <label><input type="radio" name="purchase" .checked=${state.purchase === 'cancel'} @change=${() => this.setPurchaseAnswer('cancel')} />Cancel</label>
          <button type="button" @click=${() => this.addSku()}>Add a test SKU</button>
        </fieldset>
        <label>Launch in
          <select @change=${(e: Event) => this.launchIn((e.target as HTMLSelectElement).value as ClientEventsState['launch'])}>
            <option value="guild" ?selected=${state.launch === 'guild'}>The guild's voice channel</option>
            ${others.map(([name]) => html`<option value=${`dm:${name}`} ?selected=${state.launch === `dm:${name}`}>A DM with ${displayName(name)}</option>`)}
            <option value="group-dm" ?selected=${state.launch === 'group-dm'}>A group DM with everyone</option>
          </select></label>
        <button type="button" @click=${() => this.closeInstance()}>Close the activities</button>
        <p role="status">${state.notice}</p>`,
      this.container,
    );
  }

  /** `userId`'s voice client in the players' call, joining it first if needed. */
  #voiceOf(userId: string): Promise<VoiceParticipant> {
    const known = this.state.voices.get(userId);
    if (known) return known;
    const joining = this.#joinCall(userId);
    this.state.voices.set(userId, joining);
    // A failed join leaves nobody in the call: the next try starts afresh.
    joining.catch(() => {
      if (this.state.voices.get(userId) === joining) this.state.voices.delete(userId);
    });
    return joining;
  }

  async #joinCall(userId: string): Promise<VoiceParticipant> {
    const { world, sandbox, platform, players } = this.context;
    const frame = players[0]?.frame;
    if (!frame?.channelId) throw new Error('no activity runs in a channel');
    const { access_token } = await sandbox.createToken({
      application_id: world.application_id,
      user_id: userId,
      scopes: 'identify guilds',
    });
    const voice = new VoiceParticipant({
      userId,
      token: access_token,
      place: { guild_id: frame.guildId ?? null, channel_id: frame.channelId },
      hubName: platform.hubName,
    });
    try {
      await voice.join();
    } catch (error) {
      await voice.leave();
      throw error;
    }
    return voice;
  }

  /** `userId` leaves the voice call, if in it. */
  async #leaveCall(userId: string): Promise<void> {
    const joining = this.state.voices.get(userId);
    this.state.voices.delete(userId);
    this.state.speaking.delete(userId);
    const voice = await joining?.catch(() => null);
    await voice?.leave();
  }

  #name(userId: string): string {
    const entry = Object.entries(this.context.world.users).find(([, id]) => id === userId);
    return entry ? displayName(entry[0]) : userId;
  }

  async #act(done: string, action: () => Promise<unknown>): Promise<void> {
    try {
      await action();
      this.#done(done);
    } catch (error) {
      this.#done(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #done(notice: string): void {
    this.state.notice = notice;
    this.render();
  }
}
