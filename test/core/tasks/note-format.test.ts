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

describe('parseNote agrees with the write-path parser', () => {
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
