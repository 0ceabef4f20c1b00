/** `taskdown check` on a temp vault with good and bad notes, run as a user runs it (the built CLI). */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/server-process.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

const note = (fields: string): string => `---\n${fields}\ntags:\n  - task\n---\n`;
const STAMPS = 'dateCreated: 2026-01-05T09:00:00Z\ndateModified: 2026-01-05T09:00:00Z';

const GOOD = {
  'Tasks/Good.md': note(`status: open\ndue: 2026-03-01\n${STAMPS}`),
  'Tasks/Done.md': note(`status: done\ncompletedDate: 2026-01-06\n${STAMPS}`),
  'Notes/Plain.md': '# Not a task\n',
};
const BAD = {
  'Tasks/Bad date.md': note(`status: open\ndue: 2026-13-45\n${STAMPS}`),
  'Tasks/Old.md': note('status: open'),
  'Tasks/Odd status.md': note(`status: someday\ntimeEstimate: -5\n${STAMPS}`),
  'Tasks/Missing dep.md': note(
    `status: open\n${STAMPS}\nblockedBy:\n  - uid: "[[Nobody]]"\n    reltype: FINISHTOSTART`,
  ),
  'Tasks/Broken.md': '---\ntags: [task\nstatus: : :\n---\n',
};

describe('taskdown check', () => {
  let good: { dir: string; cleanup: () => Promise<void> };
  let bad: { dir: string; cleanup: () => Promise<void> };
  let data: { dir: string; cleanup: () => Promise<void> };
  before(async () => {
    good = await tempDir('taskdown-check-good-');
    bad = await tempDir('taskdown-check-bad-');
    data = await tempDir('taskdown-check-data-');
    await writeFiles(good.dir, GOOD);
    await writeFiles(bad.dir, { ...GOOD, ...BAD });
  });
  after(async () => {
    await good.cleanup();
    await bad.cleanup();
    await data.cleanup();
  });

  it('exits 0 on a vault without errors and writes nothing', async () => {
    const run = await runCli(['check', '--vault', good.dir, '--data-dir', data.dir]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /2 task notes, 0 errors and 0 warnings/);
    assert.deepEqual(await readdir(data.dir), []);
    assert.deepEqual((await readdir(good.dir)).sort(), ['Notes', 'Tasks']);
  });

  it('lists one line per issue (note, field, code, message) and exits 1 on errors', async () => {
    const run = await runCli(['check', '--vault', bad.dir, '--data-dir', data.dir]);
    assert.equal(run.code, 1, run.stderr);
    const lines = run.stdout.trim().split('\n');
    const has = (pattern: RegExp) =>
      assert.ok(
        lines.some((l) => pattern.test(l)),
        `${pattern}\n${run.stdout}`,
      );
    has(/^Tasks\/Bad date\.md: due: invalid_date_value \(error\): "2026-13-45" is not a valid date/);
    has(/^Tasks\/Old\.md: dateCreated: missing_required \(error\): /);
    has(/^Tasks\/Old\.md: dateModified: missing_required \(error\): /);
    has(/^Tasks\/Odd status\.md: status: invalid_enum_value \(error\): "someday" is not one of /);
    has(/^Tasks\/Odd status\.md: timeEstimate: invalid_time_estimate \(error\): /);
    has(/^Tasks\/Missing dep\.md: blockedBy\[0\]: unresolved_dependency_target \(warning\): /);
    has(/^Tasks\/Broken\.md: -: invalid_frontmatter \(warning\): not valid YAML/);
    assert.ok(!lines.some((l) => l.startsWith('Tasks/Good.md') || l.startsWith('Tasks/Done.md')));
    assert.match(run.stderr, /6 task notes, 5 errors and 2 warnings in 5 notes/);
  });

  it('--json gives one document', async () => {
    const run = await runCli(['check', '--vault', bad.dir, '--data-dir', data.dir, '--json']);
    assert.equal(run.code, 1);
    const report = JSON.parse(run.stdout);
    assert.equal(report.tasks, 6);
    assert.equal(report.errors, 5);
    assert.deepEqual(
      report.issues.find((i: { note: string }) => i.note === 'Tasks/Bad date.md'),
      {
        note: 'Tasks/Bad date.md',
        field: 'due',
        code: 'invalid_date_value',
        severity: 'error',
        message: '"2026-13-45" is not a valid date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:mm[:ss][zone])',
      },
    );
  });

  it('only warnings: exit 0', async () => {
    const warn = await tempDir('taskdown-check-warn-');
    try {
      await writeFiles(warn.dir, { 'T/Missing dep.md': BAD['Tasks/Missing dep.md'] });
      const run = await runCli(['check', '--vault', warn.dir, '--data-dir', data.dir]);
      assert.equal(run.code, 0, run.stdout);
      assert.match(run.stdout, /unresolved_dependency_target \(warning\)/);
    } finally {
      await warn.cleanup();
    }
  });

  it('says when the settings file cannot be read, whose defaults the verdicts then rest on', async () => {
    const vault = await tempDir('taskdown-check-settings-');
    try {
      await writeFiles(vault.dir, {
        ...GOOD,
        // A half-synced settings file: the statuses it defines are unknown to the check.
        '.obsidian/plugins/tasknotes/data.json': '{"customStatuses": [',
      });
      const run = await runCli(['check', '--vault', vault.dir, '--data-dir', data.dir]);
      assert.match(
        run.stderr,
        /^taskdown check: cannot read \.obsidian\/plugins\/tasknotes\/data\.json; using TaskNotes defaults \(/m,
      );
      const json = JSON.parse(
        (await runCli(['check', '--vault', vault.dir, '--data-dir', data.dir, '--json'])).stdout,
      );
      assert.match(json.notices[0].message, /cannot read \.obsidian\/plugins\/tasknotes\/data\.json/);
      // A broken note is reported once, as its issue, not again as a notice.
      const brokenNote = JSON.parse(
        (await runCli(['check', '--vault', bad.dir, '--data-dir', data.dir, '--json'])).stdout,
      );
      assert.deepEqual(brokenNote.notices, []);
    } finally {
      await vault.cleanup();
    }
  });

  it('a missing vault is a usage error (exit 2)', async () => {
    const run = await runCli(['check', '--vault', path.join(good.dir, 'nope')]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /does not exist/);
  });
});
