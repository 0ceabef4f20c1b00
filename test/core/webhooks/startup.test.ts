/**
 * A start with a full delivery log (10,000 finished deliveries and their events, ~6 MB) reads only
 * what it needs: the bytes the process reads while the webhook service starts on a freshly opened
 * store (whose page cache is empty, so every page SQLite touches is a read) stay far below the
 * size of the log. Counting bytes instead of timing the start keeps the test meaningful on a
 * loaded machine; `npm run bench -- webhooks` times it.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { EventBus } from '../../../src/core/events/bus.js';
import { silentLogger } from '../../../src/core/logger.js';
import { createHttpClient } from '../../../src/core/net/http-client.js';
import { SettingsStore } from '../../../src/core/state/settings.js';
import { openStore, STORE_FILE, type Store } from '../../../src/core/store/database.js';
import { EventJournal } from '../../../src/core/store/event-journal.js';
import { createWebhookService } from '../../../src/core/webhooks/service.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { tempDir } from '../../helpers/temp.js';

const RECORDS = 10_000;

async function start(store: Store, dataDir: string, clock: ManualClock) {
  const journal = new EventJournal(store, { name: 'v', path: '/v' }, silentLogger);
  journal.attach(new EventBus(clock, silentLogger));
  const settings = await SettingsStore.open(dataDir);
  const http = createHttpClient();
  const service = await createWebhookService({
    store,
    journal,
    settings,
    http,
    clock,
    log: silentLogger,
    paths: { root: dataDir, dataDir },
    timeoutMs: 1000,
    guard: { listenHost: '127.0.0.1', listenPort: () => undefined, allowPrivate: false },
  });
  return {
    service,
    async stop() {
      await service.stop();
      await http.close();
    },
  };
}

describe('start-up with a full delivery log', () => {
  it(`reads neither the ${RECORDS.toLocaleString('en')} logged deliveries nor the journal`, async () => {
    const dir = await tempDir('taskdown-startup-');
    const clock = new ManualClock();
    try {
      let store = openStore(dir.dir);
      const first = await start(store, dir.dir, clock);
      // Port 9 on loopback: nothing listens, so the pending ones stay pending.
      const hook = await first.service.create({ url: 'http://127.0.0.1:9/', events: ['task.created'] });
      await first.stop();
      const envelope = JSON.stringify({ event: 'task.created', data: { task: { title: 'x'.repeat(400) } } });
      store.db.transaction(() => {
        const event = store.db.prepare('INSERT INTO events (name, at, envelope) VALUES (?, ?, ?)');
        const delivery = store.db.prepare(
          `INSERT INTO deliveries (id, webhook_id, event_seq, event, status, attempts, next_attempt_at, created_at)
           VALUES (?, ?, ?, 'task.created', ?, 1, ?, ?)`,
        );
        for (let i = 0; i < RECORDS + 3; i++) {
          const seq = Number(event.run('task.created', clock.now(), envelope).lastInsertRowid);
          const pending = i >= RECORDS;
          delivery.run(
            `del_${i}`,
            hook.id,
            seq,
            pending ? 'pending' : 'success',
            pending ? clock.now() + 60_000 : null,
            clock.now(),
          );
        }
      })();
      await store.close();

      store = openStore(dir.dir);
      const size = statSync(path.join(dir.dir, STORE_FILE)).size;
      assert.ok(size > 4_000_000, `the store holds ${size} bytes`);
      const readBefore = bytesRead();
      const second = await start(store, dir.dir, clock);
      const read = bytesRead() - readBefore;
      try {
        assert.ok(read < 256 * 1024, `a start read ${read} bytes of a ${size}-byte store`);
        // The pending ones were found (through the index) and are waiting for their time.
        const pending = second.service.deliveries({ status: 'pending' }).deliveries;
        assert.deepEqual(
          pending.map((d) => d.id),
          ['del_10000', 'del_10001', 'del_10002'],
        );
      } finally {
        await second.stop();
        await store.close();
      }
    } finally {
      await dir.cleanup();
    }
  });
});

/** Bytes this process has read through read system calls so far (Linux). */
function bytesRead(): number {
  const io = readFileSync('/proc/self/io', 'utf8');
  return Number(/^rchar: (\d+)$/m.exec(io)?.[1]);
}
