// The plain-YAML fast path must give exactly what the general parser gives, or step aside
// (undefined). Checked on typical TaskNotes frontmatter (which it must take) and on a seeded
// corpus of documents built from tricky scalars and layouts (where it may step aside, but never
// disagree or accept what the general parser rejects).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readYamlFull } from '../../../src/core/tasks/note-format.js';
import { readPlainYaml } from '../../../src/core/tasks/plain-yaml.js';

/** The general parser's value, or the error it throws. */
function full(yaml: string): { value?: unknown; error?: unknown } {
  try {
    return { value: readYamlFull(yaml) };
  } catch (error) {
    return { error };
  }
}

function assertAgrees(yaml: string): boolean {
  const fast = readPlainYaml(yaml);
  if (fast === undefined) return false;
  const expected = full(yaml);
  assert.equal(expected.error, undefined, `fast path accepted what the parser rejects:\n${yaml}`);
  assert.deepStrictEqual(fast, expected.value, `fast path disagrees on:\n${yaml}`);
  return true;
}

const TYPICAL = [
  `title: Draft dentist 9678
status: open
priority: normal
due: 2026-11-22
scheduled: 2026-10-09
contexts:
  - "@office"
projects:
  - "[[Project 12]]"
timeEstimate: 105
dateCreated: 2026-05-07T00:00:00.000Z
dateModified: 2026-05-07T01:00:00.000Z
recurrence: DTSTART:20260507;FREQ=WEEKLY;BYDAY=MO
complete_instances:
  - "2026-11-21"
timeEntries:
  - startTime: 2026-05-08T00:00:00.000Z
    endTime: 2026-05-08T00:45:00.000Z
    description: Work session
blockedBy:
  - uid: "[[Task 00012]]"
    reltype: FINISHTOSTART
reminders:
  - id: rem_1
    type: relative
    relatedTo: due
    offset: -PT1H
tags:
  - task
  - dev`,
  `title: It's done # a comment
status: done
completedDate: 2026-01-02
archived: false
points: -3
ratio: 0.25
nothing:
empty: ~
tags:
- task
- "with: colon"
- 'single ''quoted'''`,
  `# leading comment
title: Short

tags:

  - task
  # inner comment
  - home`,
];

const KEYS = ['title', 'status', 'due', 'my field', 'x-y', 'k.1', 'true', 'Null', '__proto__', 'a', 'a'];
const SCALARS = [
  '',
  '~',
  'null',
  'NULL',
  'Null',
  'nUll',
  'true',
  'True',
  'TRUE',
  'tRue',
  'yes',
  'no',
  'on',
  'off',
  '0',
  '-0',
  '+5',
  '007',
  '0o17',
  '0x1F',
  '0b101',
  '1_000',
  '1.5',
  '-1.50',
  '+0.0',
  '-0.0',
  '.5',
  '1.',
  '1e3',
  '1.5e-3',
  '.inf',
  '-.Inf',
  '.NaN',
  '12:30',
  '2025-01-15',
  '2025-01-15T10:00:00Z',
  '1234-',
  '1234-5',
  '2025-01-15x',
  '20250-1',
  '"quoted"',
  "'single'",
  "'it''s'",
  '"with \\"escape\\""',
  '"a: b"',
  '"x" # c',
  '"x"y',
  "'a' 'b'",
  'a: b',
  'a:b',
  'a #comment',
  'a#b',
  '#x',
  '@office',
  '`x`',
  '%x',
  '!tag x',
  '!!str 5',
  '&anchor x',
  '*alias',
  '[a, b]',
  '{a: 1}',
  '|',
  '>',
  '- x',
  '-x',
  '-',
  '-PT1H',
  '?x',
  '? x',
  ':x',
  'x:',
  'trailing   ',
  'C#',
  '[[Link]]',
  '"[[Link]]"',
  'a, b',
  'émoji 🎉',
  'x # y # z',
  "'unterminated",
  '"unterminated',
  'a\u0007b',
  '\ufeffbom',
  'Ünïcödé',
  // Unicode white space is not YAML white space: kept inside and at the ends of values.
  '\u00a0lead',
  'trail\u00a0',
  'sep\u2028',
  '"q"\u00a0',
  '"q"   # c',
  "'q' #c",
  "'it'''",
  'x\u00a0#c',
  '"\\u00e9"',
  'a  b',
  '0.1.2',
  '1-2',
  '+',
  '.',
  '...',
  '---',
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A random document from the pools: scalars, sequences, sequences of mappings, noise lines. */
function randomDoc(random: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const lines: string[] = [];
  const count = 1 + Math.floor(random() * 5);
  for (let k = 0; k < count; k++) {
    const key = pick(KEYS);
    const sep = pick([': ', ': ', ':  ', ' : ', ':']);
    const shape = random();
    if (shape < 0.45) {
      lines.push(`${key}${sep}${pick(SCALARS)}`);
    } else if (shape < 0.75) {
      lines.push(`${key}:`);
      const indent = ' '.repeat(pick([0, 2, 2, 4]));
      const items = Math.floor(random() * 3);
      for (let j = 0; j < items; j++) lines.push(`${indent}- ${pick(SCALARS)}`);
    } else if (shape < 0.9) {
      lines.push(`${key}:`);
      const indent = ' '.repeat(pick([0, 2]));
      const items = 1 + Math.floor(random() * 2);
      for (let j = 0; j < items; j++) {
        lines.push(`${indent}- ${pick(KEYS)}: ${pick(SCALARS)}`);
        const more = Math.floor(random() * 3);
        for (let m = 0; m < more; m++) {
          const extra = pick([2, 2, 2, 1, 3, 4]);
          lines.push(`${indent}${' '.repeat(extra)}${pick(KEYS)}${pick([': ', ':'])}${pick(SCALARS)}`);
        }
      }
    } else {
      lines.push(
        pick(['', '   ', '# note', '  # indented note', `  ${pick(SCALARS)}`, `${key}:`, '  nested: 1']),
      );
    }
  }
  return lines.join('\n');
}

describe('plain-YAML fast path', () => {
  it('reads typical TaskNotes frontmatter itself, with the general parser’s values', () => {
    for (const yaml of TYPICAL) assert.ok(assertAgrees(yaml), `fast path stepped aside on:\n${yaml}`);
  });

  it('keeps dates and date-times as strings and reads plain numbers', () => {
    const value = readPlainYaml('due: 2025-01-15\nat: 2025-01-15T10:00:00Z\nn: 42\nf: 1.5\nz: -0');
    assert.deepStrictEqual(value, { due: '2025-01-15', at: '2025-01-15T10:00:00Z', n: 42, f: 1.5, z: -0 });
  });

  it('steps aside for what it does not handle', () => {
    for (const yaml of [
      'a: [x, y]',
      'a: |\n  text',
      'a: &x 1\nb: *x',
      'a: "esc\\"aped"',
      'a: plain\n  continued',
      'nested:\n  b: 1',
      'a: 1_000',
      'a: 1e3',
      'a: .inf',
      'a: 0x1F',
      'a:\tb',
      'a: b\r\nc: d',
      '"quoted key": 1',
      'Null: 1',
      '__proto__: 1',
      '',
      '# only a comment',
    ]) {
      assert.equal(readPlainYaml(yaml), undefined, yaml);
    }
  });

  it('never disagrees with the general parser on 20,000 generated documents', () => {
    const random = rng(20261122);
    let taken = 0;
    for (let n = 0; n < 20_000; n++) if (assertAgrees(randomDoc(random))) taken++;
    // The corpus is meant to exercise the fast path, not only its exits.
    assert.ok(taken > 1_500, `fast path taken for only ${taken} documents`);
  });
});
