// @vitest-environment node
import Database from 'better-sqlite3';
import { betterSqliteConnection } from '../../../src/store/sqlite/better-sqlite3';
import { SqliteEngine } from '../../../src/store/sqlite/engine';
import { runStorageAdapterSuite, type SuiteDB } from './adapter-suite';

runStorageAdapterSuite('SQLite (better-sqlite3)', (catalogue) =>
  SqliteEngine.open<SuiteDB>(betterSqliteConnection(new Database(':memory:')), catalogue),
);
