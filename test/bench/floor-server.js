/**
 * The engine's floors of the server phase (`npm run bench -- --only=server`): the least a Worker
 * and a SQLite-backed Durable Object on the same Miniflare and workerd as the server (same
 * compatibility date and flags) do to answer what the server answers. One module, run as its own
 * Worker by `lib/engine-floors.js`:
 *
 * - `GET /worker/read`: the Worker itself answers the bytes set with `PUT /worker/body`, from memory;
 * - everything under `/o/<name>/` goes, as the server's requests do, from the Worker to the object
 *   named `<name>` (`idFromName`), request and all:
 *   - `PUT .../body`, then `GET .../read`: the object answers those bytes from memory;
 *   - `PUT .../rows` (a JSON array of objects and a token), then `GET .../read-sql`: the object
 *     finds the request's token in SQLite, reads the newest 200 rows and answers them as a JSON
 *     array (what the server must do at the least for a lobby's messages);
 *   - `GET .../ws` (an upgrade): a hibernatable WebSocket (`ctx.acceptWebSocket`);
 *   - `POST .../broadcast`: the request's body sent to every accepted WebSocket, then 204;
 *   - `POST .../broadcast-stored`: the body inserted as one row first, then sent to every socket;
 *   - `POST .../broadcast-numbered`: the body (a dispatch's `d`) and an event naming it inserted,
 *     then a resume record of every socket's sequence number, then each socket sent the dispatch
 *     numbered;
 *   - `POST .../broadcast-numbered-after`: the same, with the message and its event committed
 *     in one transaction and the resume record in a second before the sends;
 *   - `POST .../write`: the body inserted as one row, answered with its id;
 *   - `POST .../write-logged`: the request's token found in SQLite, then the body inserted as one
 *     row and an event naming it as another, committed together, answered with the row's id.
 */
import { DurableObject } from 'cloudflare:workers';

const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** What `GET /worker/read` answers. */
let workerBody = '';

/** One floor object: its rows in SQLite, its WebSockets through the hibernation API. */
export class FloorObject extends DurableObject {
  /** What `GET .../read` answers. */
  body = '';
  /** The sockets' last sequence number (`broadcast-numbered`). */
  sequence = 0;

  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, data TEXT NOT NULL);' +
        'CREATE TABLE IF NOT EXISTS tokens (token TEXT PRIMARY KEY, user_id TEXT NOT NULL);' +
        'CREATE TABLE IF NOT EXISTS log (seq INTEGER PRIMARY KEY, data TEXT NOT NULL);' +
        'CREATE TABLE IF NOT EXISTS resume (id INTEGER PRIMARY KEY, data TEXT NOT NULL);',
    );
  }

  async fetch(request) {
    const url = new URL(request.url);
    const op = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
    const sql = this.ctx.storage.sql;
    switch (op) {
      case 'body':
        this.body = await request.text();
        return new Response(null, { status: 204 });
      case 'read':
        return new Response(this.body, { headers: JSON_HEADERS });
      case 'rows': {
        const { token, rows } = await request.json();
        sql.exec('DELETE FROM rows; DELETE FROM tokens');
        sql.exec('INSERT INTO tokens (token, user_id) VALUES (?, ?)', token, '1');
        for (const row of rows) sql.exec('INSERT INTO rows (data) VALUES (?)', JSON.stringify(row));
        return new Response(null, { status: 204 });
      }
      case 'read-sql': {
        const token = request.headers.get('Authorization') ?? '';
        if (sql.exec('SELECT user_id FROM tokens WHERE token = ?', token).toArray().length === 0) {
          return new Response('{"message":"401: Unauthorized","code":0}', { status: 401, headers: JSON_HEADERS });
        }
        const rows = sql.exec('SELECT data FROM rows ORDER BY id DESC LIMIT 200').toArray();
        return new Response(JSON.stringify(rows.map((row) => JSON.parse(row.data))), { headers: JSON_HEADERS });
      }
      case 'ws': {
        const pair = new WebSocketPair();
        this.ctx.acceptWebSocket(pair[1]);
        return new Response(null, { status: 101, webSocket: pair[0] });
      }
      case 'broadcast':
      case 'broadcast-stored': {
        const text = await request.text();
        if (op === 'broadcast-stored') sql.exec('INSERT INTO rows (data) VALUES (?)', text);
        for (const socket of this.ctx.getWebSockets()) socket.send(text);
        return new Response(null, { status: 204 });
      }
      case 'broadcast-numbered': {
        // What a gateway must do at the least: the message and its event stored, then each
        // socket's next sequence number stored in one resume record, then each socket sent the
        // message with its own number.
        const d = await request.text();
        const id = sql.exec('INSERT INTO rows (data) VALUES (?) RETURNING id', d).one().id;
        sql.exec('INSERT INTO log (data) VALUES (?)', JSON.stringify({ t: 'MESSAGE_CREATE', id }));
        const sockets = this.ctx.getWebSockets();
        this.sequence += 1;
        const numbers = sockets.map((_, i) => [i, this.sequence]);
        sql.exec('INSERT INTO resume (data) VALUES (?)', JSON.stringify(numbers));
        for (const socket of sockets) {
          socket.send(`{"op":0,"d":${d},"s":${this.sequence},"t":"LOBBY_MESSAGE_CREATE"}`);
        }
        return new Response(null, { status: 204 });
      }
      case 'broadcast-numbered-after': {
        // The same, as a gateway that numbers only what was committed: the message and its
        // event in one transaction, then the resume record in a second, then the sends.
        const d = await request.text();
        await this.ctx.storage.transaction(async () => {
          const id = sql.exec('INSERT INTO rows (data) VALUES (?) RETURNING id', d).one().id;
          sql.exec('INSERT INTO log (data) VALUES (?)', JSON.stringify({ t: 'MESSAGE_CREATE', id }));
        });
        const sockets = this.ctx.getWebSockets();
        this.sequence += 1;
        const numbers = sockets.map((_, i) => [i, this.sequence]);
        await this.ctx.storage.transaction(async () => {
          sql.exec('INSERT INTO resume (data) VALUES (?)', JSON.stringify(numbers));
        });
        for (const socket of sockets) {
          socket.send(`{"op":0,"d":${d},"s":${this.sequence},"t":"LOBBY_MESSAGE_CREATE"}`);
        }
        return new Response(null, { status: 204 });
      }
      case 'write-logged': {
        // What every write of the server does at the least: the token found, then the message
        // and its event in the log, in one transaction.
        const token = request.headers.get('Authorization') ?? '';
        const text = await request.text();
        if (sql.exec('SELECT user_id FROM tokens WHERE token = ?', token).toArray().length === 0) {
          return new Response('{"message":"401: Unauthorized","code":0}', { status: 401, headers: JSON_HEADERS });
        }
        // Both statements run with no await between them: the object commits them together.
        const id = sql.exec('INSERT INTO rows (data) VALUES (?) RETURNING id', text).one().id;
        sql.exec('INSERT INTO log (data) VALUES (?)', JSON.stringify({ t: 'MESSAGE_CREATE', id }));
        return new Response(JSON.stringify({ id: String(id) }), { headers: JSON_HEADERS });
      }
      case 'write': {
        const text = await request.text();
        const id = sql.exec('INSERT INTO rows (data) VALUES (?) RETURNING id', text).one().id;
        return new Response(JSON.stringify({ id: String(id) }), { headers: JSON_HEADERS });
      }
      default:
        return new Response(null, { status: 404 });
    }
  }

  webSocketMessage() {}

  webSocketClose(socket, code, reason) {
    try {
      socket.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // Already closed.
    }
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/worker/body') {
      workerBody = await request.text();
      return new Response(null, { status: 204 });
    }
    if (url.pathname === '/worker/read') return new Response(workerBody, { headers: JSON_HEADERS });
    const [, prefix, name] = url.pathname.split('/');
    if (prefix !== 'o' || !name) return new Response(null, { status: 404 });
    return env.FLOORS.get(env.FLOORS.idFromName(name)).fetch(request);
  },
};
