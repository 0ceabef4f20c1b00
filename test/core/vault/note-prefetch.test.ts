/**
 * A start's notes walked and read (or looked up) on a second thread (note-prefetch.ts): the
 * scan's result is the one it gets walking and reading the notes itself, whatever the notes hold
 * and whatever happens to them between the walk and the read.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stampOf, type SnapshotEntry } from '../../../src/core/vault/index-snapshot.js';
import { NotePrefetch } from '../../../src/core/vault/note-prefetch.js';
import { type VaultPathPolicy } from '../../../src/core/vault/paths.js';
import { prefetchNotes, scanVault, type VaultScan } from '../../../src/core/vault/vault-scan.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

/** The scan's unit (vault-scan.ts): the reader must be given the same. */
const CHUNK = 500;

describe('note prefetch', () => {
  let policy: VaultPathPolicy;
  let cleanup: () => Promise<void>;
  const parse = (rel: string, text: string): { rel: string; text: string } | null => {
    if (text.startsWith('broken')) throw new Error(`broken ${rel}`);
    return text.startsWith('skip') ? null : { rel, text };
  };
  /** What a scan found, in a form two scans can be compared by. */
  const summary = (scan: VaultScan<unknown>): unknown => ({
    notes: scan.notes.map(({ rel, hash, size, parsed, broken }) => ({ rel, hash, size, parsed, broken })),
    unreadable: scan.unreadable,
    folders: [...scan.folders].sort(),
    links: scan.links,
  });
  const plainScan = async (): Promise<unknown> => summary(await scanVault(policy, parse, []));
  const prefetchedScan = async (prefetch: NotePrefetch): Promise<unknown> =>
    summary(await scanVault(policy, parse, [], { prefetch }));
  const startReading = (): NotePrefetch => new NotePrefetch(policy, CHUNK, Date.now());

  before(async () => {
    const tmp = await tempDir('note-prefetch-');
    cleanup = tmp.cleanup;
    policy = { root: tmp.dir, dataDir: path.join(tmp.dir, '.taskdown') };
    const files: Record<string, string> = {};
    // Four chunks and a bit, so the reader has to wait for the scan to free its slots.
    for (let i = 0; i < 2_100; i++) files[`Tasks/Task ${String(i).padStart(4, '0')}.md`] = `---\nn: ${i}\n---\n`;
    Object.assign(files, {
      'Tasks/Task 0100.md': '---\ntitle: Ünïcode ✓\n---\nBody 🎉\n',
      'Tasks/Task 0200.md': 'skip: not a task',
      'Tasks/Task 0300.md': 'broken frontmatter',
      'Tasks/Task 0400.md': '',
      'Tasks/Task 0499.md': 'a'.repeat(64 * 1024),
      // Larger than a slot: the scan reads it itself, and what follows still comes from the slot.
      'Tasks/Task 0501.md': `---\ntitle: Big\n---\n${'é'.repeat(600_000)}`,
      'Tasks/Task 0502.md': `---\ntitle: After the big one\n---\n`,
      '.obsidian/ignored.md': 'not a note',
    });
    await writeFiles(policy.root, files);
    // Bytes that are not UTF-8 are decoded as the scan decodes them.
    await writeFile(path.join(policy.root, 'Tasks/Task 0600.md'), Buffer.from([0x2d, 0xff, 0xfe, 0x0a, 0xc3]));
    await symlink(path.join(policy.root, 'Tasks/Task 0100.md'), path.join(policy.root, 'Linked.md'));
  });
  after(() => cleanup());

  it('gives the scan what it reads itself: texts, sizes, hashes, broken notes, links', async () => {
    const expected = await plainScan();
    assert.deepEqual(await prefetchedScan(startReading()), expected);
    const notes = (expected as { notes: Array<{ rel: string; size: number }> }).notes;
    assert.equal(notes.length, 2_100 + 1); // and the link
    assert.equal(notes.find((n) => n.rel === 'Tasks/Task 0501.md')?.size, 1_200_000 + 19);
  });

  it('reports notes that vanished or became folders after the walk as the scan does', async () => {
    const prefetch = startReading();
    // The reader may have read the first slots already; these are in the last chunk.
    const gone = path.join(policy.root, 'Tasks/Task 2050.md');
    const folder = path.join(policy.root, 'Tasks/Task 2060.md');
    await rm(gone);
    await rm(folder);
    await mkdir(folder);
    try {
      // The folders differ: the reader's walk was made before the folder existed.
      const notesOf = (scan: unknown): unknown => {
        const { notes, unreadable } = scan as { notes: unknown; unreadable: unknown };
        return { notes, unreadable };
      };
      assert.deepEqual(notesOf(await prefetchedScan(prefetch)), notesOf(await plainScan()));
    } finally {
      await rm(folder, { recursive: true });
      await writeFiles(policy.root, { 'Tasks/Task 2050.md': '---\nn: 2050\n---\n', 'Tasks/Task 2060.md': '---\nn: 2060\n---\n' });
    }
  });

  it('leaves the reading to the scan when the reader stopped', async () => {
    const prefetch = startReading();
    prefetch.dispose();
    assert.deepEqual(await prefetchedScan(prefetch), await plainScan());
  });

  it('is not used for another vault', async () => {
    const other = new NotePrefetch({ ...policy, dataDir: path.join(policy.root, 'elsewhere') }, CHUNK, Date.now());
    assert.deepEqual(await prefetchedScan(other), await plainScan());
    assert.equal(await other.chunk(0), undefined, 'disposed');
  });

  it('looks the notes of a restart up against the snapshot as the scan does: unchanged ones reused, the rest read', async () => {
    const first = await scanVault(policy, parse, []);
    const previous: SnapshotEntry<unknown>[] = first.notes.map((note) => ({
      ...note,
      ...stampOf(statSync(path.join(policy.root, note.rel))),
    }));
    // Changed, gone and new since the snapshot; one entry with a stamp no file has.
    await writeFile(path.join(policy.root, 'Tasks/Task 0010.md'), '---\nn: changed\n---\n');
    await rm(path.join(policy.root, 'Tasks/Task 1500.md'));
    await writeFiles(policy.root, { 'Tasks/Task 9999.md': '---\nn: new\n---\n' });
    const stale = previous.find((entry) => entry.rel === 'Tasks/Task 2000.md')!;
    stale.ino += 1;
    try {
      const expected = await scanVault(policy, parse, previous);
      const prefetch = new NotePrefetch(policy, CHUNK, Date.now(), 'stat');
      const got = await scanVault(policy, parse, previous, { prefetch });
      assert.deepEqual(summary(got), summary(expected));
      assert.equal(got.reused, expected.reused);
      assert.equal(got.reused, previous.length - 3); // changed, gone, stale
    } finally {
      await writeFiles(policy.root, { 'Tasks/Task 0010.md': '---\nn: 10\n---\n', 'Tasks/Task 1500.md': '---\nn: 1500\n---\n' });
      await rm(path.join(policy.root, 'Tasks/Task 9999.md'));
    }
  });

  it('takes over the lookups the reader has not reached, with the result of the scan alone', async () => {
    const first = await scanVault(policy, parse, []);
    const previous: SnapshotEntry<unknown>[] = first.notes.map((note) => ({
      ...note,
      ...stampOf(statSync(path.join(policy.root, note.rel))),
    }));
    // One changed note in the first chunk and one in the last: whichever thread looks them up.
    const stale = [previous[1]!, previous[previous.length - 2]!];
    for (const entry of stale) entry.size += 1;
    const expected = summary(await scanVault(policy, parse, previous));
    const chunks = Math.ceil(previous.length / CHUNK);
    const takenOver: number[] = [];
    for (let run = 0; run < 5; run++) {
      const prefetch = new NotePrefetch(policy, CHUNK, Date.now(), 'stat');
      const got = await scanVault(policy, parse, previous, { prefetch });
      assert.deepEqual(summary(got), expected);
      assert.equal(got.reused, previous.length - stale.length);
      takenOver.push(prefetch.takenOver);
    }
    // The scan asks for its first chunk as soon as it has the walk: the reader is not done by then.
    assert.ok(takenOver.some((n) => n > 0 && n <= chunks), `chunks taken over: ${takenOver.join(', ')}`);
  });

  it('is not used when the snapshot is not what it expected', async () => {
    const reader = new NotePrefetch(policy, CHUNK, Date.now(), 'read');
    const entry = { rel: 'Tasks/Task 0000.md', hash: '', size: 0, mtimeMs: 0, ctimeMs: 0, ino: 0, parsed: null };
    const plain = summary(await scanVault(policy, parse, [entry]));
    assert.deepEqual(summary(await scanVault(policy, parse, [entry], { prefetch: reader })), plain);
    assert.equal(await reader.chunk(0), undefined, 'disposed');
    const looker = new NotePrefetch(policy, CHUNK, Date.now(), 'stat');
    assert.deepEqual(await prefetchedScan(looker), await plainScan());
    assert.equal(await looker.chunk(0), undefined, 'disposed');
  });

  it('drops the chunks that arrive after it was stopped', async () => {
    const reader = startReading();
    // Keep this thread busy while the reader posts its first chunks: they wait in the queue.
    const until = Date.now() + 1_000;
    while (Date.now() < until);
    reader.dispose();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(await reader.chunk(0), undefined);
  });

  it('hands the scan its walk: the scan walks no more', async () => {
    const reader = startReading();
    const walk = await reader.walk();
    assert.equal(walk?.notes.length, 2_100 + 1);
    // A note created after the walk is not in this scan (VaultStore catches up with it later).
    const late = path.join(policy.root, 'Tasks/After the walk.md');
    await writeFile(late, '---\nn: late\n---\n');
    try {
      const scan = await scanVault(policy, parse, [], { prefetch: reader });
      assert.ok(!scan.notes.some((note) => note.rel === 'Tasks/After the walk.md'));
      await rm(late);
      assert.deepEqual(summary(scan), await plainScan());
    } finally {
      await rm(late, { force: true });
    }
  });

  it('reads and looks up on the thread', async () => {
    for (const mode of ['read', 'stat'] as const) {
      const reader = new NotePrefetch(policy, CHUNK, Date.now(), mode);
      const chunk = await reader.chunk(0);
      assert.ok(chunk, mode);
      // The first note in the scan's order is the link (to Task 0100).
      const stamp = stampOf(statSync(path.join(policy.root, 'Linked.md')));
      if (mode === 'read') assert.equal(chunk.read(0)?.text, '---\ntitle: Ünïcode ✓\n---\nBody 🎉\n');
      else assert.deepEqual([chunk.unchanged(0, stamp), chunk.unchanged(0, { ...stamp, ino: stamp.ino + 1 })], [true, false]);
      chunk.release();
      reader.dispose();
    }
  });

  it('starts a thread for a vault of 2,000 notes or more only; a smaller one hands the scan its walk', async () => {
    const large = prefetchNotes(policy, 'read');
    assert.equal(large.threaded, true);
    assert.deepEqual(await prefetchedScan(large), await plainScan());
    const small = await tempDir('note-prefetch-small-');
    try {
      await writeFiles(small.dir, { 'A.md': 'skip', 'Sub/B.md': '---\nn: 1\n---\n' });
      const smallPolicy = { root: small.dir, dataDir: path.join(small.dir, '.taskdown') };
      const handed = prefetchNotes(smallPolicy, 'read');
      assert.equal(handed.threaded, false);
      assert.deepEqual((await handed.walk())?.notes, ['A.md', 'Sub/B.md']);
      const scan = await scanVault(smallPolicy, parse, [], { prefetch: handed });
      assert.deepEqual(summary(scan), summary(await scanVault(smallPolicy, parse, [])));
    } finally {
      await small.cleanup();
    }
  });

  it('gives no walk once stopped: the scan walks itself', async () => {
    const reader = startReading();
    reader.dispose();
    assert.equal(await reader.walk(), undefined);
  });

  it('dates the scan from the walk the reader was given', async () => {
    const startedAt = Date.now() - 60_000;
    const scan = await scanVault(policy, parse, [], {
      prefetch: new NotePrefetch(policy, CHUNK, startedAt),
    });
    assert.equal(scan.startedAt, startedAt);
  });
});
