/** Note layout: parsing, new-note serialisation and comment-preserving updates. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FrontmatterError,
  parseNote,
  serializeNewNote,
  updateNote,
} from '../../../src/core/tasks/note-format.js';
import { parseDocument } from 'yaml';

const NOTE = `---
# leading comment
title: Alpha # inline comment
due: 2025-01-15
dateCreated: 2025-01-01T10:00:00.000+10:00
unknown_key: keep me
tags:
  - task
---


Body line 1

Body line 2  
`;

describe('parseNote', () => {
  it('keeps YAML dates and timestamps as strings', () => {
    const { frontmatter } = parseNote(NOTE);
    assert.equal(frontmatter?.due, '2025-01-15');
    assert.equal(frontmatter?.dateCreated, '2025-01-01T10:00:00.000+10:00');
    assert.equal(typeof frontmatter?.due, 'string');
  });

  it('takes details after the block without leading blank lines or trailing whitespace', () => {
    assert.equal(parseNote(NOTE).details, 'Body line 1\n\nBody line 2');
    assert.equal(parseNote('---\na: 1\n---\r\nx\r\ny\r\n').details, 'x\ny');
  });

  it('treats an empty block and a missing block as no frontmatter', () => {
    assert.deepEqual(parseNote('---\n---\nbody'), { frontmatter: null, details: '---\n---\nbody' });
    assert.equal(parseNote('just text').frontmatter, null);
    assert.equal(parseNote('---\n- a\n- b\n---\n').frontmatter, null);
  });

  it('throws FrontmatterError for broken YAML', () => {
    assert.throws(() => parseNote('---\ntags: [task\nstatus: : :\n---\n'), FrontmatterError);
  });
});

describe('serializeNewNote', () => {
  it('writes block YAML, quotes @ and [[ strings, leaves dates bare, one blank line before the body', () => {
    const text = serializeNewNote(
      {
        status: 'open',
        scheduled: '2026-08-08',
        dateCreated: '2026-08-08T13:04:39.123+10:00',
        contexts: ['@office'],
        projects: ['[[Q1]]'],
        blockedBy: [{ uid: '[[Draft]]', reltype: 'FINISHTOSTART' }],
        tags: ['task'],
      },
      '  Body\r\ntext  ',
    );
    assert.equal(
      text,
      [
        '---',
        'status: open',
        'scheduled: 2026-08-08',
        'dateCreated: 2026-08-08T13:04:39.123+10:00',
        'contexts:',
        '  - "@office"',
        'projects:',
        '  - "[[Q1]]"',
        'blockedBy:',
        '  - uid: "[[Draft]]"',
        '    reltype: FINISHTOSTART',
        'tags:',
        '  - task',
        '---',
        '',
        'Body',
        'text',
        '',
      ].join('\n'),
    );
  });

  it('writes no body for empty details', () => {
    assert.equal(serializeNewNote({ status: 'open' }, ''), '---\nstatus: open\n---\n\n');
  });
});

describe('updateNote', () => {
  it('keeps comments, unknown keys, key order and the body of an untouched note part', () => {
    const out = updateNote(NOTE, [
      ['due', '2025-02-01'],
      ['status', 'done'],
    ]);
    assert.equal(
      out,
      NOTE.replace('due: 2025-01-15', 'due: 2025-02-01').replace(
        '  - task\n---',
        '  - task\nstatus: done\n---',
      ),
    );
  });

  it('round-trips an unchanged note byte for byte', () => {
    assert.equal(updateNote(NOTE, []), NOTE);
  });

  it('deletes keys and keeps the leading comment of a deleted first key', () => {
    const out = updateNote(NOTE, [['title', undefined]]);
    assert.match(out, /^---\n# leading comment\ndue: 2025-01-15\n/);
    assert.doesNotMatch(out, /title:/);
  });

  it('changes and deletes a key written twice as it reads (the last one), leaving it once', () => {
    const twice = '---\nstatus: open\npriority: high\nstatus: done\n---\nBody\n';
    assert.equal(parseNote(twice).frontmatter?.status, 'done');
    const changed = updateNote(twice, [['status', 'in-progress']]);
    assert.equal(changed, '---\npriority: high\nstatus: in-progress\n---\nBody\n');
    assert.equal(parseNote(changed).frontmatter?.status, 'in-progress');
    assert.equal(updateNote(twice, [['status', undefined]]), '---\npriority: high\n---\nBody\n');
    // Other keys written twice are left as they are.
    assert.equal(
      updateNote(twice, [['priority', 'low']]),
      '---\nstatus: open\npriority: low\nstatus: done\n---\nBody\n',
    );
  });

  it('reads the frontmatter after a byte order mark, and keeps the mark when writing', () => {
    const marked = '\uFEFF---\nstatus: open\ntags: [task]\n---\nBody\n';
    assert.deepEqual(parseNote(marked), { frontmatter: { status: 'open', tags: ['task'] }, details: 'Body' });
    assert.equal(
      updateNote(marked, [['status', 'done']]),
      '\uFEFF---\nstatus: done\ntags: [task]\n---\nBody\n',
    );
  });

  it('writes CRLF into a CRLF note (the block and a new body), and keeps its body as it was', () => {
    const windows = '---\r\nstatus: open\r\n---\r\nLine one\r\nLine two\n';
    assert.equal(
      updateNote(windows, [['status', 'done']]),
      '---\r\nstatus: done\r\n---\r\nLine one\r\nLine two\n',
    );
    assert.equal(
      updateNote(windows, [['due', '2026-01-15']], 'New\nbody'),
      '---\r\nstatus: open\r\ndue: 2026-01-15\r\n---\r\n\r\nNew\r\nbody\r\n',
    );
    assert.equal(parseNote(updateNote(windows, [['status', 'done']])).frontmatter?.status, 'done');
  });

  it('keeps the inline comment of a changed scalar', () => {
    assert.match(updateNote(NOTE, [['title', 'Beta']]), /title: Beta # inline comment/);
  });

  it('replaces the body when details are given', () => {
    const out = updateNote(NOTE, [], 'New\r\nbody  ');
    assert.ok(out.endsWith('---\n\nNew\nbody\n'));
    assert.ok(updateNote(NOTE, [], '').endsWith('  - task\n---\n\n'));
  });

  it('adds a frontmatter block to a note without one', () => {
    assert.equal(
      updateNote('plain body\n', [['tags', ['task']]]),
      '---\ntags:\n  - task\n---\n\nplain body\n',
    );
  });
});

const TRICKY = `---
due: 2025-01-15
scheduled: 2025-01-15T09:30
dateCreated: 2025-01-01T10:00:00.000+10:00
time: 12:30
yes_word: yes
no_word: no
on_word: on
t: true
f: FALSE
tilde: ~
nul: null
blank:
zip: 01234
octal: 0o17
hex: 0x1F
bin: 0b101
int: 42
neg: -3
float: 3.50
exp: 1e3
inf: .inf
nan: .nan
under: 1_000
version: 1.2.3
contexts: ["@ctx", '@home']
projects:
  - "[[Project A]]"
  - "[[Folder/Project B]]"
link: "[[Other]]"
nested:
  a: 1
  b: [x, 'y']
  c: { d: null }
quoted: 'It''s "fine"'
colon: "a: b"
dup: 1
dup: 2
multi: |
  line 1
  line 2
---
`;

describe('parseNote agrees with the write-path parser', () => {
  it('gives the same values as the yaml Document API for a tricky sample', () => {
    const read = parseNote(TRICKY).frontmatter;
    const doc = parseDocument(TRICKY.split('---\n')[1]!, { schema: 'core', uniqueKeys: false });
    assert.deepEqual(read, doc.toJS());
    assert.equal(read?.zip, 1234);
    assert.equal(read?.bin, '0b101');
    assert.equal(read?.yes_word, 'yes');
    assert.equal(read?.tilde, null);
    assert.equal(read?.dup, 2);
    assert.ok(Number.isNaN(read?.nan));
  });

  it('caps alias expansion as before', () => {
    const bomb = `---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n---\n`;
    assert.throws(() => parseNote(bomb));
  });
});

describe('updateNote keeps the text of what it does not change', () => {
  const KEPT = [
    '---',
    'zip: 02134',
    'phone: +4930123',
    'flag: True',
    'nothing: ~',
    'big: 1.0e+3',
    "quoted: 'It''s'",
    'escaped: "caf\\u00e9"',
    'folded: one',
    '  two',
    'tags:',
    '- task',
    '- home',
    'status: open # why',
    'title: "Alpha"',
    'note: |',
    '  kept',
    '---',
    'Body',
    '',
  ].join('\n');

  it('changes one line and leaves every other byte of the block as written', () => {
    assert.equal(
      updateNote(KEPT, [['status', 'done']]),
      KEPT.replace('status: open # why', 'status: done # why'),
    );
  });

  it('keeps the quoting of a changed scalar', () => {
    assert.equal(updateNote(KEPT, [['title', 'Beta']]), KEPT.replace('"Alpha"', '"Beta"'));
  });

  it('rewrites only the lines of a changed or deleted list, and adds new keys at the end', () => {
    const out = updateNote(KEPT, [
      ['tags', ['task', 'work']],
      ['zip', undefined],
      ['due', '2026-01-15'],
    ]);
    assert.equal(
      out,
      KEPT.replace('zip: 02134\n', '')
        .replace('tags:\n- task\n- home\n', 'tags:\n  - task\n  - work\n')
        .replace('  kept\n---', '  kept\ndue: 2026-01-15\n---'),
    );
    const read = parseNote(out).frontmatter;
    assert.deepEqual(read?.tags, ['task', 'work']);
    assert.equal(read?.zip, undefined);
    assert.equal(read?.phone, 4930123);
  });

  it('replaces a block value with a scalar and the last key of a block without a final newline', () => {
    assert.equal(updateNote('---\ntags:\n  - a\nx: 1\n---\n', [['tags', 'a']]), '---\ntags: a\nx: 1\n---\n');
    assert.equal(updateNote('---\nx: 01\nnote: |\n  a\n---\n', [['note', undefined]]), '---\nx: 01\n---\n');
    assert.equal(
      updateNote('---\r\nx: 01\r\ntags:\r\n- a\r\n---\r\n', [['tags', ['b']]]),
      '---\r\nx: 01\r\ntags:\r\n  - b\r\n---\r\n',
    );
  });

  it('re-prints the block when an edit in place would not read as the change', () => {
    // Rewriting `a` in place would drop the anchor `b` refers to: `b` gets a copy of its value.
    const aliased = '---\na: &x 01\nb: *x\nc: 01\n---\n';
    assert.equal(updateNote(aliased, [['a', 2]]), '---\na: &x 2\nb: 1\nc: 1\n---\n');
    assert.equal(updateNote(aliased, [['a', undefined]]), '---\nb: 1\nc: 1\n---\n');
    const merged = '---\nbase: &b\n  p: 1\nc:\n  <<: *b\n---\n';
    assert.deepEqual(parseNote(updateNote(merged, [['base', 'x']])).frontmatter, {
      base: 'x',
      c: parseNote(merged).frontmatter?.c,
    });
  });

  it('writes every change so that it reads back as made, whatever the old value looked like', () => {
    const cases: Array<[string, string, unknown]> = [
      ['a: !!str 1', 'a', 5],
      ['a: !!null', 'a', 'yes'],
      ['a: !!bool true', 'a', 'True'],
      ['a: !!int 1', 'a', 'x'],
      ['a: |\n  x', 'a', '  '],
      ['a: 1', 'a', 'x\n\n'],
      ['a: 1', 'b', 'x\n\n\n'],
      ['1: a\nb: 2', '1', undefined],
      ['true: a\n~: b', 'null', undefined],
    ];
    for (const [yaml, key, value] of cases) {
      const note = `---\n${yaml}\n---\nBody\n`;
      const expected: Record<string, unknown> = { ...parseNote(note).frontmatter };
      if (value === undefined) delete expected[key];
      else expected[key] = value;
      const out = updateNote(note, [[key, value]]);
      assert.deepEqual(parseNote(out), { frontmatter: expected, details: 'Body' }, `${yaml} / ${key}`);
    }
    // Only the changed line moves: the blank line before the closing `---` stays.
    assert.equal(updateNote('---\na: 1\n\n---\nBody\n', [['a', 2]]), '---\na: 2\n\n---\nBody\n');
  });

  it('refuses a change it cannot write without changing something else, and one to YAML it cannot edit', () => {
    // A directive in the block: the edit in place reads right; a re-print would end the block at
    // the directives' `---`, so when only a re-print could do (an anchor's value changes), no way.
    const directive = '---\n%YAML 1.2\n--- # doc\na: &x !!int 1\nb: 2\n---\nBody\n';
    assert.deepEqual(parseNote(updateNote(directive, [['b', 'x']])), {
      frontmatter: { a: 1, b: 'x' },
      details: 'Body',
    });
    const aliased = '---\n%YAML 1.2\n---\na: &x 1\nb: *x\n---\nBody\n';
    assert.throws(() => updateNote(aliased, [['a', 2]]), FrontmatterError);
    // js-yaml reads a flow list continued at column 0; the library that edits does not.
    assert.deepEqual(parseNote('---\na: [x,\ny]\n---\n').frontmatter, { a: ['x', 'y'] });
    assert.throws(() => updateNote('---\na: [x,\ny]\n---\n', [['b', 1]]), FrontmatterError);
  });

  it('reads every change as made on a sample of tricky frontmatter', () => {
    const keys = Object.keys(parseNote(TRICKY).frontmatter ?? {});
    const values: unknown[] = ['x', 'a: b', '', null, 3, true, ['l', '[[L]]'], { k: 'v' }, 'multi\nline'];
    for (const [i, key] of keys.entries()) {
      for (const value of [...values, undefined]) {
        const changes = [
          [key, value],
          [`new${i}`, values[i % values.length]],
        ] as const;
        const expected: Record<string, unknown> = { ...parseNote(TRICKY).frontmatter };
        if (value === undefined) delete expected[key];
        else expected[key] = value;
        expected[`new${i}`] = values[i % values.length];
        const read = parseNote(updateNote(TRICKY, changes)).frontmatter;
        assert.deepEqual(read, expected, `${key} = ${JSON.stringify(value)}`);
      }
    }
  });
});
