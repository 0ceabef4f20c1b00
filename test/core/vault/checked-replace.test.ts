/**
 * The last step of a note write against another program's saves landing at each point of it. The
 * other program is simulated by wrapping `fs.linkSync` and `fs.renameSync` (published to the ESM
 * named imports with syncBuiltinESMExports), so each interleaving happens every run.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { checkedReplace } from '../../../src/core/vault/checked-replace.js';
import { NoteChangedError } from '../../../src/core/vault/note-changed.js';
import { hashText } from '../../../src/core/vault/vault-scan.js';
import { tempDir } from '../../helpers/temp.js';

const { linkSync, renameSync } = fs;

/** Another program's save: temp file, then rename, as editors do. */
function editorSave(file: string, text: string): void {
  const tmp = `${file}.editor~`;
  fs.writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** Runs `before` once right before the next call of `name` whose first argument is `target`. */
function onceBefore(name: 'linkSync' | 'renameSync', match: (a: string, b: string) => boolean, before: () => void) {
  const original = name === 'linkSync' ? linkSync : renameSync;
  let done = false;
  fs[name] = ((a: string, b: string) => {
    if (!done && match(a, b)) {
      done = true;
      before();
    }
    original(a, b);
  }) as typeof original;
  syncBuiltinESMExports();
}

/** Runs `after` once right after the next call of `name` matching. */
function onceAfter(name: 'renameSync', match: (a: string, b: string) => boolean, after: () => void) {
  let done = false;
  fs[name] = ((a: string, b: string) => {
    renameSync(a, b);
    if (!done && match(a, b)) {
      done = true;
      after();
    }
  }) as typeof renameSync;
  syncBuiltinESMExports();
}

describe('checkedReplace', () => {
  let tmp: { dir: string; cleanup: () => Promise<void> };
  let note: string;
  let ours: string;
  const basis = 'the text the change was computed from\n';

  beforeEach(async () => {
    tmp = await tempDir('taskdown-checked-');
    note = path.join(tmp.dir, 'Task.md');
    ours = path.join(tmp.dir, '.Task.md.ours.tmp');
    fs.writeFileSync(note, basis);
    fs.writeFileSync(ours, 'our change\n');
  });
  afterEach(async () => {
    fs.linkSync = linkSync;
    fs.renameSync = renameSync;
    syncBuiltinESMExports();
    await tmp.cleanup();
  });

  const replace = () => checkedReplace('Task.md', hashText(basis))(ours, note);
  const files = () => fs.readdirSync(tmp.dir).sort();

  it('replaces the note that is still the basis, leaving no other file', () => {
    replace();
    assert.equal(fs.readFileSync(note, 'utf8'), 'our change\n');
    assert.deepEqual(files(), ['Task.md']);
  });

  it('changes nothing when the note is no longer the basis', () => {
    fs.writeFileSync(note, 'saved by another program\n');
    assert.throws(replace, NoteChangedError);
    assert.equal(fs.readFileSync(note, 'utf8'), 'saved by another program\n');
  });

  it('puts back a save that landed after the check, before the rename', () => {
    // Between the check and the pin: invisible to the check, pinned by the link.
    onceBefore('linkSync', (from) => from === note, () => editorSave(note, 'save 1\n'));
    assert.throws(replace, NoteChangedError);
    assert.equal(fs.readFileSync(note, 'utf8'), 'save 1\n');
    assert.deepEqual(files(), ['Task.md'], 'pins and temp files left behind');
  });

  it('keeps a newer save made after our rename instead of putting the older one back', () => {
    onceBefore('linkSync', (from) => from === note, () => editorSave(note, 'save 1\n'));
    // The other program saves again right after our text landed: that save is the newest.
    onceAfter(
      'renameSync',
      (from, to) => from === ours && to === note,
      () => editorSave(note, 'save 2\n'),
    );
    assert.throws(replace, NoteChangedError);
    assert.equal(fs.readFileSync(note, 'utf8'), 'save 2\n');
    assert.deepEqual(files(), ['Task.md']);
  });

  it('leaves a note deleted after our rename deleted', () => {
    onceBefore('linkSync', (from) => from === note, () => editorSave(note, 'save 1\n'));
    onceAfter(
      'renameSync',
      (from, to) => from === ours && to === note,
      () => fs.unlinkSync(note),
    );
    assert.throws(replace, NoteChangedError);
    assert.equal(fs.existsSync(note), false);
    assert.deepEqual(files(), []);
  });
});
