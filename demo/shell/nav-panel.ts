/**
 * `<demo-nav>`: the left column. The guild's channels the user may view (private ones marked),
 * the user's lobbies with a form to join or create one by secret, and the developer views.
 * Every entry is a link to a `#/...` route, so the keyboard and the back button work.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { CHANNEL_TYPE, canView, channelGroups, isPrivate } from './guild-model';
import { StateController } from './state-controller';
import { icon, type IconName } from './icons';
import { sharedStyles } from './styles';

/** The lobby's name: its `name` metadata, else its id. */
export function lobbyName(lobby: { id: string; metadata: Record<string, string> | null }): string {
  return lobby.metadata?.name || `Lobby ${lobby.id.slice(-6)}`;
}

/** The left column. */
export class DemoNav extends LitElement {
  static override properties = {
    client: { attribute: false },
    route: { type: String },
    joining: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: flex; flex-direction: column; background: var(--side); color: var(--side-ink); min-height: 0; overflow: auto; }
    header { padding: 0.9rem 1rem; border-bottom: 1px solid #000; }
    header h2 { font-size: 1rem; }
    nav { padding: 0.5rem; display: grid; gap: 0.75rem; }
    h3 { color: var(--side-muted); padding: 0 0.5rem 0.25rem; font-size: 0.72rem; }
    a { display: flex; gap: 0.45rem; align-items: center; padding: 0.3rem 0.5rem; border-radius: 6px; color: var(--side-ink); text-decoration: none; }
    a:hover { background: var(--side-hover); }
    a[aria-current='page'] { background: var(--side-active); color: #fff; font-weight: 600; }
    .icon { width: 1.1rem; text-align: center; color: var(--side-muted); flex: none; }
    .tag { margin-left: auto; font-size: 0.72rem; color: var(--side-muted); }
    form { display: grid; gap: 0.35rem; padding: 0.25rem 0.5rem; }
    label { font-size: 0.8rem; color: var(--side-muted); }
    input { background: #111418; border-color: #4b5563; color: var(--side-ink); width: 100%; }
    form .row { flex-wrap: nowrap; }
    form button { background: var(--side-active); border-color: #4b5563; color: #fff; white-space: nowrap; }
  `,
  ];

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
    const link = (route: string, name: IconName, label: string, tag?: unknown) => html`
      <li><a href="#/${route}" aria-current=${this.route === route ? 'page' : 'false'}><span class="icon">${icon(name)}</span><span>${label}</span>${tag ? html`<span class="tag">${tag}</span>` : nothing}</a></li>`;
    return html`
      <header><h2>${guild?.name ?? client.world.guild.name}</h2></header>
      <nav aria-label="Channels and lobbies">
        ${
          guild
            ? channelGroups(guild.channels.values(), (c) => canView(guild, me, c)).map(
                (group) => html`
            <section aria-label=${group.category?.name ?? 'Channels'}>
              ${group.category ? html`<h3>${group.category.name}</h3>` : nothing}
              <ul>${group.channels.map((c) => {
                const voice = c.type === CHANNEL_TYPE.VOICE;
                const locked = isPrivate(guild, c);
                return link(
                  `channel/${c.id}`,
                  voice ? 'voice' : locked ? 'lock' : 'text',
                  c.name ?? '',
                  locked ? 'private' : undefined,
                );
              })}</ul>
            </section>`,
              )
            : html`<p class="muted" role="status" style="padding: 0 0.5rem; color: var(--side-muted)">Connecting to the gateway…</p>`
        }
        <section aria-label="Lobbies">
          <h3>Lobbies</h3>
          <ul>${[...client.state.lobbies.values()].map((lobby) => link(`lobby/${lobby.id}`, 'lobby', lobbyName(lobby), html`${lobby.members.length}<span class="visually-hidden"> members</span>`))}</ul>
          <form @submit=${this.#join}>
            <label for="secret">Join or create a lobby by secret</label>
            <div class="row">
              <input id="secret" name="secret" required placeholder="e.g. cafe-lounge" autocomplete="off" />
              <button type="submit" ?disabled=${this.joining}>Join</button>
            </div>
          </form>
        </section>
        <section aria-label="Developer">
          <h3>Developer</h3>
          <ul>
            ${link('bot', 'bot', "Bot's view")}
            ${link('dev', 'tools', 'Developer tools')}
          </ul>
        </section>
      </nav>
    `;
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
