/** Filenames and folders of new notes (as in the TaskNotes plugin). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  baseFilename,
  filenameSafeTitle,
  MAX_NAME_BYTES,
  processFolderTemplate,
  storageTitle,
  uniqueNotePath,
} from '../../../src/core/tasks/filename.js';
import { mergeTaskNotesSettings } from '../../../src/core/tasks/tasknotes-settings.js';

const NOW = new Date(2026, 7, 8, 13, 4, 39).getTime(); // local time

describe('filenames', () => {
  it('cleans titles for storage and for filenames', () => {
    assert.equal(storageTitle('  a \t b\u0007 '), 'a b');
    assert.equal(storageTitle('\u0001'), 'untitled');
    assert.equal(filenameSafeTitle('What: a/b? [x] #1.'), 'What ab x 1');
    assert.equal(filenameSafeTitle('...'), 'untitled');
    assert.equal(filenameSafeTitle('con'), 'task-con');
  });

  it('keeps no bidirectional control in a name, so that it displays as it is spelt', () => {
    // U+202E (right-to-left override) would show "Invoice \u202Efdp.exe" as "Invoice exe.pdf".
    assert.equal(filenameSafeTitle('Invoice \u202efdp.exe'), 'Invoice fdp.exe');
    assert.equal(filenameSafeTitle('a\u2066b\u2069c\u200fd\u061ce'), 'abcde');
    assert.equal(filenameSafeTitle('\u202e'), 'untitled');
    assert.equal(processFolderTemplate('T/{{title}}', { title: 'x\u202ey', now: NOW }), 'T/xy');
    // Other invisible characters that writing needs stay: the joiner of an emoji sequence.
    assert.equal(filenameSafeTitle('👩\u200d💻 work'), '👩\u200d💻 work');
    assert.equal(storageTitle('Invoice \u202efdp.exe'), 'Invoice \u202efdp.exe');
  });

  it('cuts a long title to a safe file name in bytes, never inside a character', () => {
    const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
    const ascii = filenameSafeTitle('a'.repeat(240));
    assert.equal(ascii, 'a'.repeat(MAX_NAME_BYTES));
    // 4-byte emoji, 3-byte CJK, a letter with a combining accent: cut on a character boundary.
    for (const unit of ['😀', '語', 'e\u0301']) {
      const name = filenameSafeTitle(unit.repeat(200));
      assert.ok(bytes(name) <= MAX_NAME_BYTES && bytes(name) > MAX_NAME_BYTES - bytes(unit), unit);
      assert.equal(name, unit.repeat(name.length / unit.length), `${unit}: whole characters only`);
    }
    assert.equal(filenameSafeTitle(`${'a'.repeat(MAX_NAME_BYTES - 1)} b`), 'a'.repeat(MAX_NAME_BYTES - 1));
    assert.equal(filenameSafeTitle('😀'.repeat(200)), '😀'.repeat(MAX_NAME_BYTES / 4));
    // A cut that ends in dots drops them, like any title ending in dots.
    assert.equal(filenameSafeTitle(`${'a'.repeat(MAX_NAME_BYTES - 2)}....b`), 'a'.repeat(MAX_NAME_BYTES - 2));
    // Folder names made from variables are cut the same way.
    assert.equal(
      processFolderTemplate('T/{{title}}', { title: 'x'.repeat(300), now: NOW }),
      `T/${'x'.repeat(MAX_NAME_BYTES)}`,
    );
  });

  it('uses the title by default and the configured format otherwise', () => {
    const ctx = { title: 'Review docs', now: NOW, priority: 'high' };
    assert.equal(baseFilename(mergeTaskNotesSettings({}), ctx), 'Review docs');
    const off = (format: string, extra: Record<string, unknown> = {}) =>
      baseFilename(
        mergeTaskNotesSettings({ storeTitleInFilename: false, taskFilenameFormat: format, ...extra }),
        ctx,
      );
    assert.equal(off('zettel'), `260808${(13 * 3600 + 4 * 60 + 39).toString(36)}`);
    assert.equal(off('timestamp'), '2026-08-08-130439');
    assert.match(off('uuid'), /^[0-9a-f-]{36}$/);
    assert.equal(
      off('custom', { customFilenameTemplate: '{{priority}}-{title}-{{nope}}' }),
      'high-Review docs-',
    );
    assert.equal(off('title'), 'Review docs');
  });

  it('processes folder templates', () => {
    const ctx = { title: 'T', now: NOW, projects: ['[[Work/Site|Website]]'] };
    assert.equal(processFolderTemplate('TaskNotes/Tasks', ctx), 'TaskNotes/Tasks');
    assert.equal(processFolderTemplate('Tasks/{{year}}/{{month}}/./x/..', ctx), 'Tasks/2026/08');
    assert.equal(processFolderTemplate('Daily/YYYY-MM-DD', ctx), 'Daily/2026-08-08');
    assert.equal(processFolderTemplate('P/{{project}}/{{currentNotePath}}', ctx), 'P/Website');
  });

  it('finds the first free name with -2, -3 suffixes', async () => {
    const taken = new Set(['F/A.md', 'F/A-2.md']);
    const exists = async (p: string) => taken.has(p);
    assert.equal(await uniqueNotePath('F', 'A', exists, NOW), 'F/A-3.md');
    assert.equal(await uniqueNotePath('', 'B', exists, NOW), 'B.md');
  });
});
