/**
 * `<demo-bot-view>`: the same guild as the Tic-Tac-Toe bot sees it. Its gateway session
 * identified with capability 1 << 15 (channel obfuscation), so a channel it cannot view arrives
 * as `___hidden___` with the CHANNEL_OBFUSCATED flag and one overwrite denying View Channel to
 * @everyone; over HTTP the channel list follows the sandbox clock's 2026-11-16 rule.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { DemoClient } from './demo-client';
import { CHANNEL_TYPE, canView, channelGroups, isObfuscated } from './guild-model';
import { StateController } from './state-controller';
import { icon } from './icons';
import { sharedStyles } from './styles';
import './bot-channels';

/** The bot's view. */
export class DemoBotView extends LitElement {
  static override properties = { client: { attribute: false } };

  static override styles = [
    sharedStyles,
    css`
    :host { display: block; overflow: auto; min-height: 0; height: 100%; }
    header { padding: 0.75rem 1rem; border-bottom: 1px solid var(--line); }
    .grid { display: grid; gap: 1rem; padding: 1rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr)); align-items: start; }
    li { padding: 0.25rem 0; }
    .channel { display: flex; gap: 0.5rem; align-items: baseline; flex-wrap: wrap; }
    .icon { width: 1.1rem; text-align: center; color: var(--ink-muted); }
    .hidden code { background: var(--warn-bg); color: var(--warn-ink); padding: 0 0.3rem; border-radius: 4px; }
    .why { font-size: 0.8rem; color: var(--ink-muted); margin-left: 1.6rem; }
    h3 + ul { margin-top: 0.25rem; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: 0.25rem 0.4rem; border-bottom: 1px solid var(--line); }
  `,
  ];

  declare client: DemoClient | null;
  readonly #bot = new StateController(this, () => this.client?.botState);
  readonly #user = new StateController(this, () => this.client?.state);

  constructor() {
    super();
    this.client = null;
  }

  override render() {
    const client = this.client;
    if (!client) return nothing;
    const game = client.world.game;
    const botGuild = client.botState.guilds.get(client.world.guild.id);
    const userGuild = client.state.guilds.get(client.world.guild.id);
    const people = userGuild ? [...userGuild.members.values()].filter((m) => !m.user.bot) : [];
    const privateChannels = userGuild
      ? [...userGuild.channels.values()].filter(
          (c) => c.type !== CHANNEL_TYPE.CATEGORY && people.some((m) => !canView(userGuild, m.user.id, c)),
        )
      : [];
    return html`
      <header>
        <h2>${icon('bot')} ${game.name} bot's view of ${client.world.guild.name}</h2>
        <p class="muted">The bot identifies with <code>capabilities: 1 &lt;&lt; 15</code> (channel obfuscation). Gateway session: ${client.botStatus}.</p>
      </header>
      <div class="grid">
        <section class="card stack" aria-labelledby="gateway-title">
          <h3 id="gateway-title">Over the gateway <code>GUILD_CREATE</code></h3>
          ${
            botGuild
              ? channelGroups(botGuild.channels.values()).map(
                  (group) => html`
              <div>
                ${group.category ? html`<h3>${group.category.name}</h3>` : nothing}
                <ul>${group.channels.map((c) =>
                  isObfuscated(c)
                    ? html`<li class="hidden"><div class="channel"><span class="icon">${icon('lock')}</span><code>${c.name}</code><span class="muted">obfuscated</span></div>
                      <div class="why">flags include CHANNEL_OBFUSCATED (1 &lt;&lt; 17); one overwrite denies View Channel to @everyone.</div></li>`
                    : html`<li><div class="channel"><span class="icon">${icon(c.type === CHANNEL_TYPE.VOICE ? 'voice' : 'text')}</span><span>${c.name}</span></div></li>`,
                )}</ul>
              </div>`,
                )
              : html`<p class="muted" role="status">Waiting for the bot's GUILD_CREATE…</p>`
          }
        </section>
        <section class="card stack" aria-labelledby="http-title">
          <h3 id="http-title">Over HTTP <code>GET /guilds/{id}/channels</code></h3>
          <demo-bot-channels .client=${client}></demo-bot-channels>
          <p class="muted">Move the sandbox clock in <a href="#/dev">Developer tools</a> to either side of 2026-11-16 and watch this list change.</p>
        </section>
        <section class="card stack" aria-labelledby="people-title">
          <h3 id="people-title">Who may view the private channels</h3>
          ${
            privateChannels.length === 0
              ? html`<p class="muted">No private channels.</p>`
              : html`<div class="table-scroll" tabindex="0" role="region" aria-label="Who may view the private channels, scrollable table"><table>
                <thead><tr><th scope="col">Member</th>${privateChannels.map((c) => html`<th scope="col">#${c.name}</th>`)}</tr></thead>
                <tbody>${[...(userGuild?.members.values() ?? [])].map(
                  (m) => html`<tr>
                  <th scope="row">${m.user.global_name ?? m.user.username}${m.user.bot ? ' (bot)' : ''}</th>
                  ${privateChannels.map((c) => html`<td>${canView(userGuild!, m.user.id, c) ? 'Yes' : 'No'}</td>`)}
                </tr>`,
                )}</tbody>
              </table></div>`
          }
        </section>
      </div>
    `;
  }
}

customElements.define('demo-bot-view', DemoBotView);
