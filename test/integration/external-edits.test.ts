/**
 * No external edit is lost (docs/vault-safety.md): an automation writing through the API while
 * another program saves the same note, against the built server. The other program appends a
 * numbered line on every save after reading the note, so a save the server overwrote is a number
 * missing from the final note. A program rewriting the note in place is read mid-save now and
 * then: no save lost either, never a 404, never a deletion. Also: writes keep the note's mode.
 */
import assert from 'node:assert/strict';
import { closeSync, openSync, writeSync } from 'node:fs';
import { chmod, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { systemSwap } from '../../src/core/vault/rename-exchange.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { encodeId, startTestServer, type TestServer } from '../helpers/server-process.js';

// Both sides run until each has done this much: about 4 s on an idle machine, longer on a loaded
// one (which only makes collisions likelier).
const MIN_SAVES = 150;
const MIN_PUTS = 100;
const EDITOR_EVERY_MS = 20;
const PUT_EVERY_MS = 33; // ~30 PUTs per second
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const note = (title: string): string =>
  `---\ntitle: ${title}\nstatus: open\ntags:\n  - task\n---\n\nSaves:\n`;

/** The numbers of the `- save N` lines of a note. */
const saves = (text: string): number[] => [...text.matchAll(/^- save (\d+)$/gm)].map((m) => Number(m[1]));

/** Numbers 1..n missing from the note. */
const missing = (text: string, n: number): number[] => {
  const found = new Set(saves(text));
  return Array.from({ length: n }, (_, i) => i + 1).filter((k) => !found.has(k));
};

type Save = (file: string, text: string) => Promise<void>;

/** An editor that saves atomically, as Obsidian and most editors do: temp file, then rename. */
const atomicSave: Save = async (file, text) => {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.editor~`);
  await writeFile(tmp, text);
  await rename(tmp, file);
};

/**
 * A program that rewrites the note in place: opens it truncating, writes half the text, pauses
 * (~1 ms, without yielding, as a slow writer would) and writes the rest.
 */
const inPlaceSave: Save = async (file, text) => {
  const fd = openSync(file, 'w');
  try {
    const bytes = Buffer.from(text);
    const half = Math.floor(bytes.length / 2);
    writeSync(fd, bytes, 0, half, 0);
    for (const until = performance.now() + 1; performance.now() < until;);
    writeSync(fd, bytes, half, bytes.length - half, half);
  } finally {
    closeSync(fd);
  }
};

/** Progress of one run: both sides go on until each has done its share. */
interface Run {
  saves: number;
  puts: number;
}
const done = (run: Run): boolean => run.saves >= MIN_SAVES && run.puts >= MIN_PUTS;

/** Saves every EDITOR_EVERY_MS until the run is done, each time reading the note and adding a line. */
async function editor(file: string, save: Save, run: Run): Promise<number> {
  while (!done(run)) {
    const text = await readFile(file, 'utf8');
    await save(file, `${text}- save ${run.saves + 1}\n`);
    run.saves++;
    await sleep(EDITOR_EVERY_MS);
  }
  return run.saves;
}

/**
 * PUTs every PUT_EVERY_MS until the run is done; returns the answers (the status, and the error
 * of a failure).
 */
async function automation(server: TestServer, id: string, run: Run): Promise<string[]> {
  const answers: string[] = [];
  while (!done(run)) {
    const next = Date.now() + PUT_EVERY_MS;
    const res = await server.request('PUT', `/api/tasks/${encodeId(id)}`, { timeEstimate: run.puts + 1 });
    answers.push(res.status === 200 ? '200' : `${res.status} ${res.body?.error}`);
    run.puts++;
    await sleep(Math.max(0, next - Date.now()));
  }
  return answers;
}

describe('external edits during API writes (real server)', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    server = await startTestServer({
      files: {
        'Tasks/Atomic.md': note('Atomic'),
        'Tasks/InPlace.md': note('InPlace'),
        'Tasks/Private.md': note('P'),
      },
    });
    const hook = await server.request('POST', '/api/webhooks', {
      url: receiver.url,
      events: ['task.created', 'task.deleted'],
    });
    assert.equal(hook.status, 201);
  });
  after(async () => {
    await server.cleanup();
    await receiver.close();
  });

  /** Runs the automation against `save`; returns the note's final text, the saves and the answers. */
  async function contend(
    id: string,
    save: Save,
  ): Promise<{ text: string; count: number; answers: string[] }> {
    const file = path.join(server.vault, id);
    const run = { saves: 0, puts: 0 };
    const [count, answers] = await Promise.all([editor(file, save, run), automation(server, id, run)]);
    await sleep(400);
    return { text: await readFile(file, 'utf8'), count, answers };
  }

  /**
   * Every PUT answered 200, or failed as a whole (nothing written) because the note changed under
   * each of its bounded attempts, which a loaded machine can make happen here; never a 404.
   */
  function assertAnswers(id: string, answers: string[]): void {
    const failed = answers.filter((a) => a !== '200');
    for (const answer of failed) {
      assert.ok(
        [
          `400 ${id} kept changing on disk while it was being written; nothing was written, try again`,
          `400 ${id} is being saved by another program right now; nothing was changed, try again`,
        ].includes(answer),
        answer,
      );
    }
    assert.ok(failed.length <= answers.length / 10, `${failed.length} of ${answers.length} PUTs failed`);
  }

  /** Nothing was reported as deleted and created again. */
  async function assertNoFalseEvents(): Promise<void> {
    await sleep(300);
    assert.deepEqual(
      receiver.requests.map((r) => `${r.body.event} ${r.body.data?.task?.path}`),
      [],
    );
  }

  it('loses none of the saves of an editor saving every 20 ms under ~30 PUTs/s', async () => {
    const id = 'Tasks/Atomic.md';
    const { text, count, answers } = await contend(id, atomicSave);
    // With the swap (native/rename-exchange, built at install on Linux and macOS) none is lost.
    // Without it a save landing between the pin and the rename (two back-to-back system calls)
    // can still be replaced (docs/vault-safety.md): about once in several runs under load, so one
    // loss is tolerated there. Without any re-check, 4-7 % of the saves (6-10 of 150) were lost.
    const lost = missing(text, count);
    assert.ok(lost.length <= (systemSwap() ? 0 : 1), `saves lost out of ${count}: ${lost.join(', ')}`);
    assertAnswers(id, answers);
    assert.match(text, /timeEstimate: \d+\n/);
    const task = await server.request('GET', `/api/tasks/${encodeId(id)}`);
    assert.deepEqual(missing(task.body.data.details, count), lost);
    await assertNoFalseEvents();
  });

  it('loses none of the saves of a program rewriting a note in place every 20 ms, never answers 404 nor reports a deletion', async () => {
    const id = 'Tasks/InPlace.md';
    const { text, count, answers } = await contend(id, inPlaceSave);
    // A PUT reading the note while the other program pauses mid-save (descheduled on a loaded
    // machine) built on half of it, and the rest went to the file the swap took out: the note
    // ended in `Sav- save 13` (seen once in CI). That file is now watched and put back.
    const lost = missing(text, count);
    assert.deepEqual(lost, [], `saves lost out of ${count}`);
    assertAnswers(id, answers);
    assert.match(text, /^---\ntitle: InPlace\n[^]*timeEstimate: \d+\n[^]*- save 1\n/);
    assert.equal((await server.request('GET', `/api/tasks/${encodeId(id)}`)).status, 200);
    await assertNoFalseEvents();
  });

  it('keeps the mode of a note it writes', async () => {
    const file = path.join(server.vault, 'Tasks/Private.md');
    await chmod(file, 0o600);
    const res = await server.request('PUT', `/api/tasks/${encodeId('Tasks/Private.md')}`, {
      priority: 'high',
    });
    assert.equal(res.status, 200);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.match(await readFile(file, 'utf8'), /priority: high/);
  });
});
