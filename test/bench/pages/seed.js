// @ts-check
/**
 * The bench's world: users, an application, tokens, lobbies and guilds made through the
 * platform's own API (the sandbox and `/api/v10`), and the bulk of it (10,000s of lobby
 * messages, guild members and their users) written straight into the platform's IndexedDB from
 * the page, with the records' shapes of `src/store/records/core.ts` and `lobbies/messages.ts`: tens
 * of thousands of POSTs would take minutes and measure nothing of interest.
 */

const EPOCH = 1_420_070_400_000n;
const MAX_U64 = (1n << 64n) - 1n;
/** Seeded ids carry the test worker id (31), which no platform context uses. */
const TEST_WORKER = 31n;

/**
 * A snowflake of the test worker.
 * @param {number} ms @param {number} processId
 */
function snowflake(ms, processId) {
  return (((BigInt(ms) - EPOCH) << 22n) | (TEST_WORKER << 17n) | (BigInt(processId) << 12n)).toString();
}

/**
 * A JSON request to the platform (answered by its service worker).
 * @param {string} method @param {string} path @param {unknown} [body] @param {string} [auth]
 * @returns {Promise<{ status: number, body: any }>}
 */
export async function call(method, path, body, auth) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (auth) headers.Authorization = auth;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/**
 * `call`, throwing unless the answer has `status`.
 * @param {number} status @param {string} method @param {string} path @param {unknown} [body] @param {string} [auth]
 */
export async function must(status, method, path, body, auth) {
  const response = await call(method, path, body, auth);
  if (response.status !== status)
    throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** @returns {Promise<IDBDatabase>} the platform's database, as its service worker created it */
function openPlatformDatabase() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open('platformpp');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * Puts `records` into `store`, 5,000 per transaction.
 * @param {IDBDatabase} db @param {string} store @param {unknown[]} records
 */
async function putAll(db, store, records) {
  for (let i = 0; i < records.length; i += 5000) {
    await new Promise((resolve, reject) => {
      const tx = db.transaction(store, 'readwrite');
      const target = tx.objectStore(store);
      for (const record of records.slice(i, i + 5000)) target.put(record);
      tx.oncomplete = () => resolve(undefined);
      tx.onerror = () => reject(tx.error);
    });
  }
}

/**
 * Runs `make` for 0..n-1, `width` at a time.
 * @template T @param {number} n @param {(i: number) => Promise<T>} make @param {number} [width]
 * @returns {Promise<T[]>}
 */
async function inParallel(n, make, width = 8) {
  /** @type {T[]} */
  const out = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await make(i);
      }
    }),
  );
  return out;
}

/**
 * The newest `count` messages of a lobby spread over the last minutes (10 ms apart, so inside
 * the 72-hour window), written by `authorIds` in turn, about 65 KB of JSON per 200.
 * @param {string} lobbyId @param {string} applicationId @param {string[]} authorIds @param {number} count @param {number} processId
 */
function lobbyMessages(lobbyId, applicationId, authorIds, count, processId) {
  const newest = Date.now() - 1000;
  return Array.from({ length: count }, (_, i) => {
    const created = newest - (count - 1 - i) * 10;
    const id = snowflake(created, processId);
    return {
      id,
      order_key: (MAX_U64 - BigInt(id)).toString().padStart(20, '0'),
      lobby_id: lobbyId,
      channel_id: lobbyId,
      author_id: authorIds[i % authorIds.length],
      application_id: applicationId,
      content: `Message ${i} of the bench: the quick brown fox jumps over the lazy dog, twice.`,
      metadata: i % 10 === 0 ? { kind: 'bench', turn: String(i) } : null,
      created_at: created,
    };
  });
}

/**
 * Users and guild members for guilds of `sizes` members (owner and bot included); the seeded
 * users are shared, the largest guild has them all.
 * @param {{ id: string, size: number }[]} guilds
 */
function guildRecords(guilds) {
  const largest = Math.max(...guilds.map((g) => g.size)) - 2;
  const since = Date.now() - 2 * 86_400_000;
  const users = Array.from({ length: largest }, (_, i) => ({
    id: snowflake(since + i, 10),
    username: `member${i}`,
    global_name: i % 3 === 0 ? `Member ${i}` : null,
    discriminator: '0',
    avatar: null,
    bot: false,
    premium_type: 0,
    primary_guild: null,
    provisional: false,
    created_at: since + i,
  }));
  const members = guilds.flatMap((guild) =>
    users.slice(0, guild.size - 2).map((user, i) => ({
      guild_id: guild.id,
      user_id: user.id,
      nick: i % 5 === 0 ? `nick${i}` : null,
      roles: [],
      joined_at: since + i,
      avatar: null,
      banner: null,
      bio: null,
      flags: 0,
    })),
  );
  return { users, members };
}

/**
 * Makes the whole world of a run and resolves to what the phases need: besides the lobbies
 * read, one more of the middle size that the reader writes to before reading it, and
 * `memoryLobbies` lobbies of 200 messages that the reader reads once each (the worker's heap).
 * @param {{ lobbySizes: number[], guildSizes: number[], writers: number, fanoutUsers: number, memoryLobbies: number, log: (line: string) => void }} options
 */
export async function seedWorld({ lobbySizes, guildSizes, writers, fanoutUsers, memoryLobbies, log }) {
  await must(204, 'POST', '/sandbox/reset');
  // GATEWAY_GUILD_MEMBERS (approved): the 100,000-member guild is over the toggle's threshold.
  const app = await must(201, 'POST', '/sandbox/applications', { name: 'Bench', flags: String(1 << 14) });
  const botAuth = `Bot ${app.bot_token}`;
  /** @param {string} name */
  const user = async (name) => (await must(201, 'POST', '/sandbox/users', { username: name })).user;
  /** @param {{ id: string }} u */
  const token = async (u) =>
    `Bearer ${(await must(201, 'POST', '/sandbox/tokens', { application_id: app.application.id, user_id: u.id, scopes: 'openid sdk.social_layer' })).access_token}`;
  /** @param {string} secret @param {string} auth */
  const join = (secret, auth) => must(200, 'PUT', '/api/v10/lobbies', { secret }, auth);

  log('users, tokens and lobbies through the API');
  const authors = await inParallel(8, (i) => user(i === 0 ? 'reader' : `author${i}`));
  const readerAuth = await token(authors[0]);
  const authorAuths = await inParallel(authors.length, (i) =>
    i === 0 ? Promise.resolve(readerAuth) : token(authors[i]),
  );
  /** @type {{ size: number, id: string }[]} */
  const readLobbies = [];
  for (const size of lobbySizes) {
    const lobby = await join(`read-${size}`, readerAuth);
    for (const auth of authorAuths.slice(1)) await join(`read-${size}`, auth);
    readLobbies.push({ size, id: lobby.id });
  }
  const sameSize = lobbySizes[Math.min(1, lobbySizes.length - 1)];
  const sameLobby = { size: sameSize, id: (await join('read-same', readerAuth)).id };
  for (const auth of authorAuths.slice(1)) await join('read-same', auth);
  // A user of their own: a user is a member of at most 100 lobbies.
  const memoryAuth = await token(await user('memory'));
  /** @type {{ size: number, id: string }[]} */
  const heapLobbies = [];
  for (let i = 0; i < memoryLobbies; i++) heapLobbies.push({ size: 200, id: (await join(`heap-${i}`, memoryAuth)).id });
  const writerUsers = await inParallel(writers, (i) => user(`writer${i}`));
  const writerAuths = await inParallel(writers, (i) => token(writerUsers[i]));
  const writeLobby = await join('write', writerAuths[0]);
  for (const auth of writerAuths.slice(1)) await join('write', auth);
  const fanUsers = await inParallel(fanoutUsers, (i) => user(`listener${i}`));
  const fanAuths = await inParallel(fanoutUsers, (i) => token(fanUsers[i]));
  const fanLobby = await join('fanout', fanAuths[0]);
  await inParallel(fanAuths.length - 1, (i) => join('fanout', fanAuths[i + 1]));

  const guilds = [];
  for (const size of guildSizes) {
    const { guild } = await must(201, 'POST', '/sandbox/guilds', { name: `Guild of ${size}`, owner_id: authors[0].id });
    await must(200, 'PUT', `/sandbox/guilds/${guild.id}/members/${app.bot.id}`, {});
    guilds.push({ size, id: guild.id });
  }

  const db = await openPlatformDatabase();
  try {
    for (const [index, lobby] of readLobbies.entries()) {
      log(`${lobby.size.toLocaleString('en')} messages into lobby ${lobby.id} (IndexedDB)`);
      await putAll(
        db,
        'lobby_messages',
        lobbyMessages(
          lobby.id,
          app.application.id,
          authors.map((a) => a.id),
          lobby.size,
          20 + index,
        ),
      );
    }
    const sameProcess = 20 + readLobbies.length;
    log(`${sameLobby.size.toLocaleString('en')} messages into lobby ${sameLobby.id}, written to before each read`);
    const authorIds = authors.map((a) => a.id);
    await putAll(
      db,
      'lobby_messages',
      lobbyMessages(sameLobby.id, app.application.id, authorIds, sameLobby.size, sameProcess),
    );
    log(`${heapLobbies.length} lobbies of 200 messages (the worker's heap)`);
    for (const [index, lobby] of heapLobbies.entries())
      await putAll(
        db,
        'lobby_messages',
        lobbyMessages(lobby.id, app.application.id, authorIds, 200, (sameProcess + 1 + index) % 32),
      );
    const { users, members } = guildRecords(guilds);
    log(
      `${users.length.toLocaleString('en')} users and ${members.length.toLocaleString('en')} guild members (IndexedDB)`,
    );
    await putAll(db, 'users', users);
    await putAll(db, 'members', members);
  } finally {
    db.close();
  }
  return {
    applicationId: app.application.id,
    botAuth,
    readerAuth,
    readLobbies,
    sameLobby,
    heapLobbies,
    memoryAuth,
    writerAuths,
    writeLobbyId: writeLobby.id,
    fanAuths,
    fanLobbyId: fanLobby.id,
    guilds,
  };
}
