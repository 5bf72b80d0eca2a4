/**
 * `<demo-fixtures>`: what the first visit seeded (ids to paste into the console or a test),
 * links that open the demo as another user, and the sandbox reset, after which the page seeds
 * the data again. Tokens are the page's own and are never shown.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { DemoClient } from './demo-client';
import { sharedStyles } from './styles';
import { userQuery } from './page-query';
import './copy-button';

/** The fixtures panel; fires `demo-reset-request` when the user confirms a reset. */
export class DemoFixtures extends LitElement {
  static override properties = {
    client: { attribute: false },
    confirming: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 22rem), 1fr)); align-items: start; }
    table { border-collapse: collapse; width: 100%; font-size: 0.85rem; }
    th, td { text-align: left; padding: 0.3rem 0.4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
    th { font-weight: 600; }
    /* An id is one word: it never wraps, the table scrolls in its box instead. */
    .id { display: inline-flex; align-items: center; gap: 0.2rem; white-space: nowrap; }
    code { font-size: 0.78rem; white-space: nowrap; }
    .note { display: block; font-size: 0.78rem; }
    .open { white-space: nowrap; }
  `,
  ];

  declare client: DemoClient | null;
  declare confirming: boolean;

  constructor() {
    super();
    this.client = null;
    this.confirming = false;
  }

  override render() {
    const client = this.client;
    if (!client) return nothing;
    const w = client.world;
    const id = (label: string, value: string) =>
      html`<span class="id"><code>${value}</code><demo-copy .value=${value} label=${`Copy the id of ${label}`}></demo-copy></span>`;
    const row = (label: string, value: string, note: unknown = nothing) =>
      html`<tr><th scope="row">${label}</th><td>${id(label, value)}${note}</td></tr>`;
    return html`
      <section class="card stack" aria-labelledby="users-title">
        <h3 id="users-title">Simulated users</h3>
        <div class="table-scroll" tabindex="0" role="region" aria-label="Simulated users, scrollable table"><table>
          <thead><tr><th scope="col">User</th><th scope="col">Id</th><th scope="col">Open as</th></tr></thead>
          <tbody>${w.users.map(
            (u) => html`<tr>
            <th scope="row">${u.global_name} <span class="muted">@${u.username}</span></th>
            <td>${id(u.global_name, u.id)}</td>
            <td class="open">${u.id === client.user.id ? html`<span class="muted">this tab</span>` : html`<a href=${userQuery(u.username)} target="_blank" rel="noopener" aria-label=${`Open ${u.global_name} in a new tab`}>New tab</a>`}</td>
          </tr>`,
          )}</tbody>
        </table></div>
        <p class="muted">Each tab is one user; every tab talks to the same service worker and shared worker, so what one does, the others see.</p>
      </section>
      <section class="card stack" aria-labelledby="data-title">
        <h3 id="data-title">Seeded data</h3>
        <div class="table-scroll" tabindex="0" role="region" aria-label="Seeded data, scrollable table"><table><tbody>
          ${row('Client application', w.client.application_id)}
          ${row(`${w.game.name} application`, w.game.application_id, html`<span class="note muted">activity page /activities/tic-tac-toe/</span>`)}
          ${row(`${w.game.name} bot user`, w.game.bot_user_id, html`<span class="note muted">bot token: kept by this page, never shown</span>`)}
          ${row(`Guild ${w.guild.name}`, w.guild.id)}
          ${row('Role Moderators', w.roles.moderators)}
          ${row('Role Bots', w.roles.bots)}
          ${row('#general', w.channels.general)}
          ${row('#staff-only (private)', w.channels.staff)}
          ${row('Game Room (voice)', w.channels.gameRoom)}
          ${row('Lobby Café Lounge', w.lobby.id, html`<span class="note muted">secret: ${w.lobby.secret}</span>`)}
        </tbody></table></div>
      </section>
      <section class="card stack" aria-labelledby="reset-title">
        <h3 id="reset-title">Reset</h3>
        <p>POST /sandbox/reset empties every store and puts the clock back to real time. The demo then seeds its data again, in every open tab.</p>
        <div class="row">
          ${
            this.confirming
              ? html`<button type="button" class="danger" @click=${this.#reset}>Yes, reset everything</button>
                <button type="button" @click=${() => (this.confirming = false)}>Keep the data</button>`
              : html`<button type="button" class="danger" @click=${() => (this.confirming = true)}>Reset the sandbox…</button>`
          }
        </div>
      </section>
    `;
  }

  #reset(): void {
    this.confirming = false;
    this.dispatchEvent(new CustomEvent('demo-reset-request', { bubbles: true, composed: true }));
  }
}

customElements.define('demo-fixtures', DemoFixtures);
