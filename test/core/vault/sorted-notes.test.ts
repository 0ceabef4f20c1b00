/** The index's path-ordered list kept across changes equals one sorted from scratch. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SortedNotes } from '../../../src/core/vault/sorted-notes.js';

interface Rec {
  rel: string;
  v: number;
}

/** A small deterministic generator (mulberry32), so a failure can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Paths that share prefixes, differ in case only, or sort by UTF-16 units outside ASCII.
const NAMES = ['a.md', 'A.md', 'a/b.md', 'a/b/c.md', 'ab.md', 'Z.md', 'é.md', 'ø/x.md', '😀.md', 'a-b.md'];
const pathFor = (n: number): string => `${NAMES[n % NAMES.length]!.replace('.md', '')}${n}.md`;

const scratch = (index: Map<string, Rec>): Rec[] =>
  [...index.values()].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));

function assertSame(actual: readonly Rec[], expected: readonly Rec[], context: string): void {
  assert.deepEqual(
    actual.map((r) => r.rel),
    expected.map((r) => r.rel),
    context,
  );
  // The very records the index holds now, not stale ones of the same path.
  assert.ok(
    actual.every((r, i) => r === expected[i]),
    `${context}: a stale record`,
  );
}

describe('sorted notes', () => {
  it('equals a sort from scratch after random additions, removals, replacements and reads', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      const index = new Map<string, Rec>();
      const sorted = new SortedNotes<Rec>(
        (rel) => index.get(rel),
        () => index.values(),
      );
      let version = 0;
      for (let n = 0; n < 200; n++) index.set(pathFor(n), { rel: pathFor(n), v: version++ });
      sorted.reset();
      for (let step = 0; step < 600; step++) {
        const roll = next();
        const rel = pathFor(Math.floor(next() * 300));
        const before = index.get(rel);
        if (roll < 0.3) {
          const record = { rel, v: version++ };
          index.set(rel, record);
          if (before) sorted.replace(rel, record);
          else sorted.add(rel);
        } else if (roll < 0.55) {
          if (before) {
            index.delete(rel);
            sorted.remove(rel);
          }
        } else if (roll < 0.65) {
          sorted.reset();
        } else if (roll < 0.75) {
          // A folder's notes (`a/`), the notes of names that start alike (`a`), or every note.
          const prefix = ['a/', 'a/b/', 'a', 'ø/', ''][Math.floor(next() * 5)]!;
          assertSame(
            sorted.withPrefix(prefix),
            scratch(index).filter((r) => r.rel.startsWith(prefix)),
            `seed ${seed}, step ${step}, prefix ${prefix}`,
          );
        } else {
          assertSame(sorted.list(), scratch(index), `seed ${seed}, step ${step}`);
        }
      }
      assertSame(sorted.list(), scratch(index), `seed ${seed}, at the end`);
    }
  });

  it('takes the current record of a path removed, added again and replaced before a read', () => {
    const index = new Map<string, Rec>([
      ['a.md', { rel: 'a.md', v: 1 }],
      ['b.md', { rel: 'b.md', v: 1 }],
    ]);
    const sorted = new SortedNotes<Rec>(
      (rel) => index.get(rel),
      () => index.values(),
    );
    assertSame(sorted.list(), scratch(index), 'first read');
    index.delete('a.md');
    sorted.remove('a.md');
    index.set('a.md', { rel: 'a.md', v: 2 });
    sorted.add('a.md');
    const latest = { rel: 'a.md', v: 3 };
    index.set('a.md', latest);
    sorted.replace('a.md', latest);
    const list = sorted.list();
    assertSame(list, scratch(index), 'after the changes');
    assert.equal(list[0], latest);
  });

  it('answers a read without changes from the list it has', () => {
    const index = new Map<string, Rec>([['a.md', { rel: 'a.md', v: 1 }]]);
    const sorted = new SortedNotes<Rec>(
      (rel) => index.get(rel),
      () => index.values(),
    );
    const first = sorted.list();
    assert.equal(sorted.list(), first);
    index.set('0.md', { rel: '0.md', v: 1 });
    sorted.add('0.md');
    assertSame(sorted.list(), scratch(index), 'after an addition');
  });
});
