/**
 * `<demo-nav>`: the left column. The guild's channels the user may view (private ones marked,
 * voice channels with who is in them), direct messages with the other users, the user's
 * lobbies (with who is in their calls) and a form to join or create one by secret, and the developer views; what is unread
 * stands out with its count. At the bottom, the call you are in and who you are, with your
 * Mute and Deafen. Every entry is a link to a `#/...` route, so the keyboard and the back
 * button work.
 */
import { LitElement, html, nothing } from 'lit';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { CHANNEL_TYPE, canView, channelGroups, isPrivate } from './guild-model';
import { icon, type IconName } from './icons';
import { lobbyName } from './lobby-name';
import { navStyles } from './nav-styles';
import type { ConversationKey } from './read-marks';
import { StateController } from './state-controller';
import { avatarColour, initials, sharedStyles } from './styles';
import type { WireMessage } from './wire';
import { displayName } from './world';
import './voice-bar';
import './voice-members';
import './voice-toggles';

/** The left column. */
export class DemoNav extends LitElement {
  static override properties = {
    client: { attribute: false },
    route: { type: String },
    joining: { state: true },
  };

  static override styles = [sharedStyles, navStyles];

  declare client: DemoClient | null;
  declare route: string;
  declare joining: boolean;
  readonly #state = new StateController(this, () => this.client?.state);

  constructor() {
    super();
    this.client = null;
    this.route = '';
    this.joining = false;
  }

  override render() {
    const client = this.client;
    if (!client) return nothing;
    const guild = client.state.guilds.get(client.world.guild.id);
    const me = client.user.id;
    return html`
      <div class="guild-head"><h2>${guild?.name ?? client.world.guild.name}</h2></div>
      <nav aria-label="Channels and lobbies">
        ${
          guild
            ? channelGroups(guild.channels.values(), (c) => canView(guild, me, c)).map(
                (group) => html`
            <section aria-label=${group.category?.name ?? 'Channels'}>
              ${group.category ? html`<h3>${group.category.name}</h3>` : nothing}
              <ul>${group.channels.map((c) => {
                if (c.type === CHANNEL_TYPE.VOICE)
                  return html`${this.#link(`channel/${c.id}`, 'voice', c.name ?? '')}
                    <li class="voice-members"><demo-voice-members .client=${client} channel-id=${c.id}></demo-voice-members></li>`;
                const locked = isPrivate(guild, c);
                return this.#link(`channel/${c.id}`, locked ? 'lock' : 'text', c.name ?? '', {
                  unread: this.#unread(`channel:${c.id}`, client.state.channelMessages.get(c.id)),
                  tag: locked ? 'private' : undefined,
                });
              })}</ul>
            </section>`,
              )
            : html`<p class="waiting" role="status">Connecting to the gateway…</p>`
        }
        <section aria-label="Direct messages">
          <h3>Direct messages</h3>
          <ul>${client.world.users
            .filter((u) => u.id !== me)
            .map((u) => {
              const dm = client.state.dmChannelWith(u.id);
              const unread = dm ? this.#unread(`channel:${dm}`, client.state.channelMessages.get(dm)) : 0;
              return this.#person(`dm/${u.id}`, u.id, displayName(u), unread);
            })}</ul>
        </section>
        <section aria-label="Lobbies">
          <h3>Lobbies</h3>
          <ul>${[...client.state.lobbies.values()].map(
            (lobby) => html`${this.#link(`lobby/${lobby.id}`, 'lobby', lobbyName(lobby, client.lobbySecret(lobby.id)), {
              unread: this.#unread(`lobby:${lobby.id}`, client.state.messages.get(lobby.id)),
              tag: html`${lobby.members.length}<span class="visually-hidden"> ${lobby.members.length === 1 ? 'member' : 'members'}</span>`,
            })}
            <li class="voice-members"><demo-voice-members .client=${client} channel-id=${lobby.id}></demo-voice-members></li>`,
          )}</ul>
          <form @submit=${this.#join}>
            <label for="secret">Join or create a lobby by secret</label>
            <div class="join">
              <input id="secret" name="secret" required placeholder="e.g. cafe-lounge" autocomplete="off" />
              <button type="submit" ?disabled=${this.joining}>Join</button>
            </div>
          </form>
        </section>
        <section aria-label="Developer">
          <h3>Developer</h3>
          <ul>
            ${this.#link('bot', 'bot', "Bot's view")}
            ${this.#link('dev', 'tools', 'Developer tools')}
          </ul>
        </section>
      </nav>
      <demo-voice-bar .client=${client}></demo-voice-bar>
      ${this.#me(client)}
    `;
  }

  /** Unread messages of a conversation, unless it is the one open. */
  #unread(key: ConversationKey, messages: readonly WireMessage[] | undefined): number {
    const open = this.route === key.replace(':', '/');
    return open || !messages || !this.client ? 0 : this.client.reads.unread(key, messages, this.client.user.id).length;
  }

  #link(route: string, name: IconName, label: string, extra: { unread?: number; tag?: unknown } = {}) {
    const unread = extra.unread ?? 0;
    return html`<li><a href="#/${route}" class=${unread ? 'unread' : ''} aria-current=${this.route === route ? 'page' : 'false'}>
      <span class="icon">${icon(name)}</span><span class="label">${label}</span>
      ${unread ? html`<span class="badge" aria-hidden="true">${unread}</span><span class="visually-hidden">, ${unread} unread</span>` : nothing}
      ${extra.tag ? html`<span class="tag-muted">${extra.tag}</span>` : nothing}
    </a></li>`;
  }

  #person(route: string, userId: string, name: string, unread: number) {
    const status = this.client?.state.presences.get(userId)?.status ?? 'offline';
    return html`<li><a href="#/${route}" class="person ${unread ? 'unread' : ''}" aria-current=${this.route === route ? 'page' : 'false'} data-status=${status}>
      <span class="avatar medium" style="background:${avatarColour(userId)}" aria-hidden="true">${initials(name)}${status === 'offline' ? nothing : html`<span class="presence-dot ${status}"></span>`}</span>
      <span class="label">${name}<span class="visually-hidden">, ${status === 'dnd' ? 'do not disturb' : status}</span></span>
      ${unread ? html`<span class="badge" aria-hidden="true">${unread}</span><span class="visually-hidden">, ${unread} unread</span>` : nothing}
    </a></li>`;
  }

  #me(client: DemoClient) {
    const name = displayName(client.user);
    const status =
      client.status === 'ready' ? (client.state.presences.get(client.user.id)?.status ?? 'online') : 'offline';
    return html`<section class="me" aria-label="You">
      <span class="avatar medium" style="background:${avatarColour(client.user.id)}" aria-hidden="true">${initials(name)}${status === 'offline' ? nothing : html`<span class="presence-dot ${status}"></span>`}</span>
      <span class="who"><strong>${name}</strong><span class="muted">@${client.user.username}</span></span>
      <demo-voice-toggles .voice=${client.voice}></demo-voice-toggles>
    </section>`;
  }

  async #join(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    // No length check here: the platform validates the secret (1 to 250 characters) and its
    // answer is shown in words, as every refusal is.
    const secret = String(new FormData(form).get('secret') ?? '').trim();
    if (!secret || !this.client) return;
    this.joining = true;
    try {
      const lobby = await this.client.joinLobby(secret);
      form.reset();
      location.hash = `#/lobby/${lobby.id}`;
    } catch (error) {
      reportError(this, `Joining the lobby with secret "${secret}"`, error);
    } finally {
      this.joining = false;
    }
  }
}

customElements.define('demo-nav', DemoNav);
