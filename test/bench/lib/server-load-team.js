// @ts-check
/**
 * One team of the server's load run: a sandbox seeded through the platform's control API (a
 * guild with its `general` text channel, five users with OAuth2 tokens that post and read
 * guild messages and receive guild events, two applications whose bots are in the guild), and
 * each of its seven members on a real gateway WebSocket: Hello, Identify (GUILDS and
 * GUILD_MESSAGES), heartbeats answered by ACKs, and every dispatch handed to the run.
 */
import { Agent, request } from 'node:http';
import WebSocket from 'ws';

/** GUILDS | GUILD_MESSAGES: what a chat client and a chat bot identify with. */
const INTENTS = (1 << 0) | (1 << 9);

/** What each user's token may do: post and read guild messages, and receive guild events. */
const USER_SCOPES = 'identify guilds messages.read messages.write';

/**
 * The keep-alive connections every REST request of the run shares, as one busy backend's pool
 * would. Not one per member: the local engine, starved of CPU with hundreds of requests queued
 * on as many connections, resets connections whose next request it has not read for seconds
 * (ECONNRESET before the request reaches the Worker); 32 connections keep the same load queued
 * here instead, where its waiting is still part of every latency measured.
 */
export const REST_CONNECTIONS = 32;

const agent = new Agent({ keepAlive: true, maxSockets: REST_CONNECTIONS });

/**
 * A JSON request over the run's keep-alive connections; resolves with the status and the parsed body.
 * @param {string} url @param {string} method @param {unknown} [body] @param {string} [auth]
 * @returns {Promise<{ status: number, body: any }>}
 */
export function requestJson(url, method, body, auth) {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  /** @type {Record<string, string | number>} */
  const headers = {};
  if (auth) headers.Authorization = auth;
  if (payload) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': payload.length });
  return new Promise((resolve, reject) => {
    const call = request(url, { method, headers, agent }, (response) => {
      const chunks = /** @type {Buffer[]} */ ([]);
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null });
        } catch {
          resolve({ status: response.statusCode ?? 0, body: text });
        }
      });
      response.on('error', reject);
    });
    call.on('error', reject);
    call.end(payload);
  });
}

/** Lets go of the run's keep-alive connections. */
export function closeConnections() {
  agent.destroy();
}

/**
 * @typedef {{ name: string, kind: 'bot' | 'user', auth: string }} TeamMember
 * @typedef {{ base: string, channelId: string, gatewayUrl: string, members: TeamMember[] }} Team
 */

/**
 * Seeds the sandbox at `base` (`<server>/s/<name>`) with a team of `users` users and `bots` bots.
 * @param {string} base @param {{ users: number, bots: number }} size
 * @returns {Promise<Team>}
 */
export async function seedTeam(base, { users, bots }) {
  const call = async (/** @type {string} */ method, /** @type {string} */ path, /** @type {unknown} */ body) => {
    const answer = await requestJson(base + path, method, body);
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const people = [];
  for (let i = 0; i < users; i++) people.push((await call('POST', '/sandbox/users', { username: `member${i}` })).user);
  const owner = people[0];
  const seeded = await call('POST', '/sandbox/guilds', { name: 'Team', owner_id: owner.id });
  const channel = seeded.channels.find((/** @type {{ name: string }} */ c) => c.name === 'general');
  if (!channel) throw new Error(`${base}: the new guild has no general channel`);
  const apps = [];
  for (let i = 0; i < bots; i++) {
    apps.push(await call('POST', '/sandbox/applications', { name: `Team bot ${i}`, owner_id: owner.id }));
  }
  for (const who of [...people.slice(1), ...apps.map((app) => app.bot)]) {
    await call('PUT', `/sandbox/guilds/${seeded.guild.id}/members/${who.id}`, {});
  }
  /** @type {TeamMember[]} */
  const members = apps.map((app, i) => ({
    name: `bot${i}`,
    kind: /** @type {const} */ ('bot'),
    auth: `Bot ${app.bot_token}`,
  }));
  for (const [i, person] of people.entries()) {
    const token = await call('POST', '/sandbox/tokens', {
      application_id: apps[0].application.id,
      user_id: person.id,
      scopes: USER_SCOPES,
    });
    members.push({ name: `user${i}`, kind: 'user', auth: `Bearer ${token.access_token}` });
  }
  const gateway = await call('GET', '/api/v10/gateway');
  return { base, channelId: channel.id, gatewayUrl: `${gateway.url}?v=10&encoding=json`, members };
}

/**
 * @typedef {object} MemberSocket
 * @property {() => { heartbeats: number, acks: number, unacked: number, gaps: number, resumes: number,
 *   invalid_sessions: number, closed: number | null }} counts
 *   heartbeats sent and acknowledged, heartbeats sent while the previous one had no ACK, gaps in
 *   the dispatches' sequence numbers, the sessions resumed after the server asked (a reconnect, or
 *   a close a client resumes after: an object evicted while its clients were connected), the
 *   sessions the server invalidated (op 9), and the close code if the server ended the session
 *   (one the client cannot resume)
 * @property {() => void} close closes it with 1000 (the session ends)
 */

/** The close codes after which a client resumes, as the platform's documentation lists them (the others end the session). */
const RESUMABLE = new Set([1000, 1001, 1006, 4000, 4001, 4002, 4003, 4005, 4007, 4008, 4009]);

/**
 * Connects `member` to the team's gateway and identifies; resolves once READY arrived. Every
 * later dispatch goes to `onDispatch` with the time it was read. When the server asks it to
 * reconnect (op 7) or closes with a resumable code, it resumes on READY's `resume_gateway_url`
 * with its session and last sequence number, as a bot library does, so that a session never
 * loses an event to a reconnect.
 * @param {Team} team @param {TeamMember} member
 * @param {(payload: { t: string, s: number, d: any }, at: number) => void} onDispatch
 * @returns {Promise<MemberSocket>}
 */
export function connectMember(team, member, onDispatch) {
  return new Promise((resolve, reject) => {
    const counts = {
      heartbeats: 0,
      acks: 0,
      unacked: 0,
      gaps: 0,
      resumes: 0,
      invalid_sessions: 0,
      closed: /** @type {number | null} */ (null),
    };
    let seq = /** @type {number | null} */ (null);
    let session = /** @type {{ id: string, url: string } | null} */ (null);
    let ended = false;
    let ready = false;
    /** @type {WebSocket} */
    let socket;
    /** @type {NodeJS.Timeout | undefined} */
    let beat;
    const stopBeating = () => {
      clearTimeout(beat);
      clearInterval(beat);
    };
    /** @param {string} url @param {boolean} resuming */
    const open = (url, resuming) => {
      const current = new WebSocket(url);
      socket = current;
      let waitingAck = false;
      const heartbeat = () => {
        if (waitingAck) counts.unacked++;
        waitingAck = true;
        counts.heartbeats++;
        current.send(JSON.stringify({ op: 1, d: seq }));
      };
      current.on('message', (data) => {
        const at = performance.now();
        const payload = JSON.parse(String(data));
        if (typeof payload.s === 'number') {
          if (seq !== null && payload.s !== seq + 1) counts.gaps++;
          seq = payload.s;
        }
        if (payload.op === 10) {
          const interval = payload.d.heartbeat_interval;
          // As the platform asks: the first heartbeat after interval × jitter, then every interval.
          stopBeating();
          beat = setTimeout(() => {
            heartbeat();
            beat = setInterval(heartbeat, interval);
          }, interval * Math.random());
          if (resuming && session) {
            current.send(JSON.stringify({ op: 6, d: { token: member.auth, session_id: session.id, seq } }));
          } else {
            current.send(JSON.stringify({ op: 2, d: { token: member.auth, intents: INTENTS, properties: {} } }));
          }
        } else if (payload.op === 11) {
          waitingAck = false;
          counts.acks++;
        } else if (payload.op === 1) {
          heartbeat();
        } else if (payload.op === 7) {
          // The close that follows resumes.
          current.close(4000);
        } else if (payload.op === 9) {
          ended = true;
          counts.invalid_sessions++;
          current.close(1000);
        } else if (payload.op === 0) {
          if (payload.t === 'READY') {
            ready = true;
            session = { id: payload.d.session_id, url: `${payload.d.resume_gateway_url}?v=10&encoding=json` };
            resolve({
              counts: () => ({ ...counts }),
              close: () => {
                ended = true;
                stopBeating();
                socket.close(1000);
              },
            });
          } else if (payload.t === 'RESUMED') {
            counts.resumes++;
          } else onDispatch(payload, at);
        }
      });
      current.on('close', (code) => {
        stopBeating();
        if (!ready) {
          reject(new Error(`${team.base} ${member.name}: gateway closed ${code} before READY`));
          return;
        }
        if (ended || current !== socket) return;
        if (session && RESUMABLE.has(code)) open(session.url, true);
        else if (counts.closed === null) counts.closed = code;
      });
      current.on('error', (error) => {
        if (!ready) reject(error);
      });
    };
    open(team.gatewayUrl, false);
  });
}
