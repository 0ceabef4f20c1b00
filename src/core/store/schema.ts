/**
 * The store's schema as a list of migrations: entry N brings a file from `user_version` N to
 * N + 1. Never edit an entry that has shipped; add one. Times are epoch milliseconds.
 * docs/store.md explains each table.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    at INTEGER NOT NULL,
    envelope TEXT NOT NULL
  );
  `,
];
