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
  `
  CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    secret TEXT NOT NULL,
    previous_secret TEXT,
    previous_secret_expires_at INTEGER,
    active INTEGER NOT NULL,
    transform_file TEXT,
    cors_headers INTEGER NOT NULL,
    signing TEXT NOT NULL,
    retry_schedule TEXT NOT NULL,
    failure_count INTEGER NOT NULL DEFAULT 0,
    success_count INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    last_triggered INTEGER
  );

  CREATE TABLE deliveries (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    webhook_id TEXT NOT NULL,
    event_seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    body TEXT,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    round_start INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    last_attempt INTEGER,
    response_status INTEGER,
    error TEXT,
    transform_error TEXT,
    attempt_log TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX deliveries_due ON deliveries (webhook_id, next_attempt_at) WHERE status = 'pending';
  `,
  `
  CREATE TABLE reminders_handled (
    task TEXT NOT NULL,
    reminder TEXT NOT NULL,
    fire_time INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('fired', 'skipped')),
    at INTEGER NOT NULL,
    PRIMARY KEY (task, reminder, fire_time)
  ) WITHOUT ROWID;
  `,
];
