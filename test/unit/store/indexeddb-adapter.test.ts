// @vitest-environment node
import { createFromCatalogue, openIndexedDbEngine } from '../../../src/store/indexeddb/open';
import { runStorageAdapterSuite, type SuiteDB } from './adapter-suite';

let counter = 0;
runStorageAdapterSuite('IndexedDB (fake-indexeddb)', (catalogue) =>
  openIndexedDbEngine<SuiteDB>(`adapter-suite-${process.pid}-${++counter}`, 1, createFromCatalogue(catalogue)),
);
