/**
 * The last step of a note write against another program's saves landing at each point of it, with
 * the system's swap (the rename-exchange addon) and without it (pin and rename). The other program
 * is simulated around the swap, and by wrapping `fs.linkSync` and `fs.renameSync` (published to
 * the ESM named imports with syncBuiltinESMExports), so each interleaving happens every run.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { checkedReplace } from '../../../src/core/vault/checked-replace.js';
import { SETTLE_LOOKS, type TailClock } from '../../../src/core/vault/in-place-tail.js';
import { NoteChangedError } from '../../../src/core/vault/note-changed.js';
import { systemSwap, type Swap } from '../../../src/core/vault/rename-exchange.js';
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

const basis = 'the text the change was computed from\n';

/** A fresh folder with a note holding `basis` and our temp file beside it. */
async function setUp(prefix: string): Promise<{ tmp: Awaited<ReturnType<typeof tempDir>>; note: string; ours: string }> {
  const tmp = await tempDir(prefix);
  const note = path.join(tmp.dir, 'Task.md');
  const ours = path.join(tmp.dir, '.Task.md.ours.tmp');
  fs.writeFileSync(note, basis);
  fs.writeFileSync(ours, 'our change\n');
  return { tmp, note, ours };
}

describe('checkedReplace without a swap (pin and rename)', () => {
  let tmp: { dir: string; cleanup: () => Promise<void> };
  let note: string;
  let ours: string;

  beforeEach(async () => ({ tmp, note, ours } = await setUp('taskdown-checked-')));
  afterEach(async () => {
    fs.linkSync = linkSync;
    fs.renameSync = renameSync;
    syncBuiltinESMExports();
    await tmp.cleanup();
  });

  const replace = () => checkedReplace('Task.md', hashText(basis), null)(ours, note);
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

  it('loses a save landing between the pin and the rename (the gap only a swap closes)', () => {
    onceBefore('renameSync', (from, to) => from === ours && to === note, () => editorSave(note, 'save 1\n'));
    replace();
    assert.equal(fs.readFileSync(note, 'utf8'), 'our change\n');
  });

  it('keeps a save made while another is put back, though it may get the inode number of ours', () => {
    // Save 2 replaces our text right after our rename (its inode number is free again); save 3 is
    // made right before the putting back looks at the note. Save 3 must stay.
    let links = 0;
    fs.linkSync = ((a: string, b: string) => {
      links++;
      if (links === 1) editorSave(note, 'save 1\n');
      if (links === 2) editorSave(note, 'save 3\n');
      linkSync(a, b);
    }) as typeof linkSync;
    onceAfter(
      'renameSync',
      (from, to) => from === ours && to === note,
      () => editorSave(note, 'save 2\n'),
    );
    assert.throws(replace, NoteChangedError);
    assert.equal(fs.readFileSync(note, 'utf8'), 'save 3\n');
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

describe('checkedReplace with the system swap', () => {
  const swap = systemSwap();
  let tmp: { dir: string; cleanup: () => Promise<void> };
  let note: string;
  let ours: string;

  beforeEach(async () => ({ tmp, note, ours } = await setUp('taskdown-swapped-')));
  afterEach(() => tmp.cleanup());

  it('is built here (Linux and macOS build it at install)', { skip: !['linux', 'darwin'].includes(process.platform) }, () => {
    assert.ok(swap, 'native/rename-exchange is not built: run `npm run build:native`');
  });

  /**
   * The system swap with the other program's saves around it: `around[i]` runs right before
   * (`before`) and right after (`after`) the i-th swap.
   */
  function instrumented(around: { before?: () => void; after?: () => void }[]): Swap {
    let call = 0;
    return (a, b) => {
      const hooks = around[call++] ?? {};
      hooks.before?.();
      swap!(a, b);
      hooks.after?.();
    };
  }
  const replace = (s: Swap) => checkedReplace('Task.md', hashText(basis), s)(ours, note);
  const files = () => fs.readdirSync(tmp.dir).sort();

  it('replaces the note that is still the basis, leaving no other file', { skip: !swap }, () => {
    const stat = fs.statSync(ours);
    replace(swap!);
    assert.equal(fs.readFileSync(note, 'utf8'), 'our change\n');
    assert.equal(fs.statSync(note).ino, stat.ino, 'the temp file itself is in place');
    assert.deepEqual(files(), ['Task.md']);
  });

  it('puts back a save that landed right before the swap', { skip: !swap }, () => {
    // The gap that a pin and a rename leave open: here the save is taken out by the swap itself.
    assert.throws(() => replace(instrumented([{ before: () => editorSave(note, 'save 1\n') }])), NoteChangedError);
    assert.equal(fs.readFileSync(note, 'utf8'), 'save 1\n');
    assert.deepEqual(files(), ['Task.md'], 'temp files left behind');
  });

  it('keeps a newer save made right after our swap', { skip: !swap }, () => {
    const s = instrumented([
      { before: () => editorSave(note, 'save 1\n'), after: () => editorSave(note, 'save 2\n') },
    ]);
    assert.throws(() => replace(s), NoteChangedError);
    assert.equal(fs.readFileSync(note, 'utf8'), 'save 2\n');
    assert.deepEqual(files(), ['Task.md']);
  });

  it('keeps the newest of saves landing during the putting back', { skip: !swap }, () => {
    const s = instrumented([
      { before: () => editorSave(note, 'save 1\n'), after: () => editorSave(note, 'save 2\n') },
      // Save 1 is back in place, save 2 taken out; save 3 replaces save 1 before save 2 goes back.
      { after: () => editorSave(note, 'save 3\n') },
    ]);
    assert.throws(() => replace(s), NoteChangedError);
    assert.equal(fs.readFileSync(note, 'utf8'), 'save 3\n');
    assert.deepEqual(files(), ['Task.md']);
  });

  it('leaves a note deleted after our swap deleted', { skip: !swap }, () => {
    const s = instrumented([{ before: () => editorSave(note, 'save 1\n'), after: () => fs.unlinkSync(note) }]);
    assert.throws(() => replace(s), NoteChangedError);
    assert.equal(fs.existsSync(note), false);
    assert.deepEqual(files(), []);
  });

  it('falls back to the pin and rename where the file system cannot swap', () => {
    const unsupported: Swap = () => {
      throw Object.assign(new Error('EINVAL: cannot swap'), { code: 'EINVAL' });
    };
    replace(unsupported);
    assert.equal(fs.readFileSync(note, 'utf8'), 'our change\n');
    assert.deepEqual(files(), ['Task.md']);
  });
});

/**
 * A clock whose waits pass at once: `onWait(n)` runs at the n-th wait (where the other program
 * acts), and the time moves on by the wait.
 */
function fakeClock(onWait: (n: number) => void = () => {}): TailClock & { waited: () => number } {
  let offset = 0;
  let waits = 0;
  return {
    now: () => Date.now() + offset,
    sleep: async (ms) => {
      offset += ms;
      onWait(++waits);
    },
    waited: () => offset,
  };
}

for (const [name, swap] of [
  ['the system swap', systemSwap() ?? null],
  ['the pin and rename', null],
] as const) {
  describe(`checkedReplace after a read of an in-place save half-way, with ${name}`, { skip: name === 'the system swap' && !swap }, () => {
    const first = '---\ntitle: Task\n---\n\nSav';
    const rest = 'es:\n- save 12\n';
    let tmp: { dir: string; cleanup: () => Promise<void> };
    let note: string;
    let ours: string;
    let writer: number;

    beforeEach(async () => {
      ({ tmp, note, ours } = await setUp('taskdown-in-place-'));
      // Written in place well after the file was created, as the other program rewrites it.
      await new Promise((resolve) => setTimeout(resolve, 20));
      writer = fs.openSync(note, 'w');
      fs.writeSync(writer, first);
    });
    afterEach(async () => {
      fs.closeSync(writer);
      await tmp.cleanup();
    });

    const replace = (clock: TailClock) => checkedReplace('Task.md', hashText(first), swap, clock)(ours, note);
    const files = () => fs.readdirSync(tmp.dir).sort();

    it('puts the whole save back when its rest lands in the file our write took out', async () => {
      // Before, our text built on `Sav` stayed and the rest of the save was lost.
      const clock = fakeClock((n) => n === 1 && fs.writeSync(writer, rest));
      const settling = replace(clock);
      assert.ok(settling instanceof Promise, 'the file taken out is watched');
      await assert.rejects(settling, NoteChangedError);
      assert.equal(fs.readFileSync(note, 'utf8'), first + rest);
      assert.deepEqual(files(), ['Task.md']);
      // The other program's file is in place again: what it writes next lands in the note.
      fs.writeSync(writer, '- save 13\n');
      assert.equal(fs.readFileSync(note, 'utf8'), `${first + rest}- save 13\n`);
    });

    it('keeps our text once the file taken out has gone unwritten for SETTLE_LOOKS looks', async () => {
      const clock = fakeClock();
      await replace(clock);
      assert.equal(fs.readFileSync(note, 'utf8'), 'our change\n');
      assert.deepEqual(files(), ['Task.md']);
      assert.equal(clock.waited(), SETTLE_LOOKS * 5);
    });

    it('keeps a newer save that the other program wrote into our text in place', async () => {
      const clock = fakeClock((n) => {
        if (n !== 1) return;
        fs.writeSync(writer, rest);
        fs.writeFileSync(note, 'save 13, built on our text\n');
      });
      await replace(clock);
      assert.equal(fs.readFileSync(note, 'utf8'), 'save 13, built on our text\n');
      assert.deepEqual(files(), ['Task.md']);
    });

    it('waits for no note saved atomically', () => {
      editorSave(note, first);
      const clock = fakeClock(() => assert.fail('waited for a note saved atomically'));
      assert.equal(replace(clock), undefined);
      assert.equal(fs.readFileSync(note, 'utf8'), 'our change\n');
    });
  });
}
