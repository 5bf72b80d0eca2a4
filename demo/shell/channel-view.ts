/**
 * `<demo-channel-view>`: a guild channel. A voice channel is where activities run: it shows who
 * is in the channel's Tic-Tac-Toe instance (the hub's instance registry, shared by every tab)
 * and launches the activity in `<pp-activity-frame>`. A text channel shows who may see it.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { DemoClient } from './demo-client';
import { CHANNEL_TYPE, isPrivate } from './guild-model';
import { StateController } from './state-controller';
import { icon } from './icons';
import { sharedStyles } from './styles';
import { describeAccess } from './channel-access';
import './activity-launch';

/** A guild channel. */
export class DemoChannelView extends LitElement {
  static override properties = {
    client: { attribute: false },
    channelId: { type: String, attribute: 'channel-id' },
  };

  static override styles = [sharedStyles, css`
    :host { display: grid; grid-template-rows: auto 1fr; min-height: 0; height: 100%; }
    header { padding: 0.75rem 1rem; border-bottom: 1px solid var(--line); }
    .body { padding: 1rem; overflow: auto; display: grid; gap: 1rem; align-content: start; }
    .body.activity { grid-template-rows: 1fr; align-content: stretch; }
    ul.access li { margin: 0.2rem 0; }
    @media (max-width: 760px) {
      header { padding: 0.5rem 0.75rem; }
      .body { padding: 0.5rem; }
    }
  `];

  declare client: DemoClient | null;
  declare channelId: string;
  readonly #state = new StateController(this, () => this.client?.state);

  constructor() {
    super();
    this.client = null;
    this.channelId = '';
  }

  override render() {
    const client = this.client;
    const guild = client?.state.guilds.get(client.world.guild.id);
    const channel = guild?.channels.get(this.channelId);
    if (!client || !guild || !channel) return html`<p class="muted" style="padding:1rem" role="status">Looking for the channel…</p>`;
    const voice = channel.type === CHANNEL_TYPE.VOICE;
    return html`
      <header>
        <h2>${icon(voice ? 'voice' : isPrivate(guild, channel) ? 'lock' : 'text')} ${channel.name}</h2>
        <p class="muted">${voice ? 'Voice channel: activities run here.' : isPrivate(guild, channel) ? 'Private text channel.' : 'Text channel.'}</p>
      </header>
      ${voice
        ? html`<div class="body activity"><demo-activity-launch .client=${client} channel-id=${channel.id}></demo-activity-launch></div>`
        : html`<div class="body">
            <section class="card stack" aria-labelledby="access-title">
              <h3 id="access-title">Who can see #${channel.name}</h3>
              <ul class="access">${describeAccess(guild, channel).map((line) => html`<li>${line}</li>`)}</ul>
              ${isPrivate(guild, channel)
                ? html`<p>The ${client.world.game.name} bot is not a moderator: open <a href="#/bot">the bot's view</a> to see this channel obfuscated, as the gateway sends it to a bot that opted in.</p>`
                : nothing}
            </section>
            <section class="card stack" aria-labelledby="chat-title">
              <h3 id="chat-title">Chat</h3>
              <p>Text chat in this demo happens in lobbies, the SDK's chat rooms: open <a href=${`#/lobby/${client.world.lobby.id}`}>Café Lounge</a>, or join any lobby by its secret from the left column.</p>
            </section>
          </div>`}
    `;
  }
}

customElements.define('demo-channel-view', DemoChannelView);

