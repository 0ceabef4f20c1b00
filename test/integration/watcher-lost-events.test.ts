/**
 * A change another program makes while the data dir cannot be written (its disk full): its events
 * cannot be committed, so the index takes the change back and the watcher looks at the note again
 * later; once the store can be written, the change is served and its event recorded, never lost.
 * In process (src/app.ts), so a commit can be made to fail.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '../../src/core/clock.js';
import { failNextCommit, startInProcessServer, type InProcessServer } from '../helpers/in-process-server.js';
import { waitFor } from '../helpers/server-process.js';

const note = (title: string): string => `---\ntitle: ${title}\nstatus: open\ntags: [task]\n---\n`;

describe('a change by another program whose events cannot be recorded', () => {
  let server: InProcessServer;
  before(async () => {
    server = await startInProcessServer({ clock: systemClock, files: { 'A.md': note('A') } });
  });
  after(() => server.cleanup());

  it('is taken back, then served and recorded once the store can be written', async () => {
    const { journal, tasks } = server.running.services;
    const fromSeq = journal.latestSeq();
    // The data dir's disk is full for the next commit: the one of this change's event.
    failNextCommit(server);
    await writeFile(path.join(server.vault, 'A.md'), note('A, edited elsewhere'));
    await waitFor(() => journal.lostEvents === 1);
    assert.equal(tasks.find('A.md')?.title, 'A', 'the index holds what was recorded');

    const recorded = await waitFor(() => journal.eventsSince(fromSeq).find((e) => e.name === 'task.updated'));
    assert.equal(JSON.parse(recorded!.envelope).data.task.title, 'A, edited elsewhere');
    assert.equal(tasks.find('A.md')?.title, 'A, edited elsewhere');
    assert.equal(journal.eventsSince(fromSeq).length, 1, 'one event, not one per attempt');
  });
});
