/** The link index changed in place answers exactly as one built from scratch over the same notes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LinkIndex } from '../../../src/core/links/link-index.js';

// Names that collide by case and across folders, so additions and removals make links ambiguous,
// resolve them again, or move them between notes that differ only in case.
const NOTES = [
  'Task.md',
  'task.md',
  'A/Task.md',
  'A/B/Task.md',
  'A/Other.md',
  'B/Other.md',
  'B/Third.md',
  'Third.md',
  'A/B/Deep.md',
  'A/task.v2.md',
];
const LINKS = [
  '[[Task]]',
  '[[task]]',
  '[[Task.md]]',
  '[[A/Task]]',
  '[[a/task]]',
  '[[Other]]',
  '[[Third|alias]]',
  '[[Deep#h]]',
  '[[../Other]]',
  '[[./Task]]',
  '[[task.v2]]',
  '[x](Task.md)',
  '[x](A/Other.md)',
  '[x](../Third.md)',
  '[x](B%2FThird.md)',
  'A/B/Task.md',
  './Task.md',
  '../Task.md',
  'not a link',
];
const SOURCES = ['', 'x.md', 'A/x.md', 'A/B/x.md', 'B/x.md'];

test('additions and removals give the answers of an index built from scratch', () => {
  let seed = 3;
  const next = (n: number): number =>
    Math.floor(((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * n);
  const present = new Set(NOTES.filter(() => next(2) === 0));
  const index = new LinkIndex(present);
  for (let step = 0; step < 300; step++) {
    // Resolve (and so memoise) a few links, then change the set of notes.
    for (let i = 0; i < 8; i++) index.resolve(LINKS[next(LINKS.length)]!, SOURCES[next(SOURCES.length)]);
    const note = NOTES[next(NOTES.length)]!;
    if (present.has(note)) {
      present.delete(note);
      index.remove(note);
    } else {
      present.add(note);
      index.add(note);
    }
    const fresh = new LinkIndex(present);
    for (const link of LINKS) {
      for (const from of SOURCES) {
        assert.equal(
          index.resolve(link, from),
          fresh.resolve(link, from),
          `step ${step}: ${link} from "${from}" with ${[...present].join(', ')}`,
        );
      }
    }
  }
});

test('adding a note already present and removing one absent change nothing', () => {
  const index = new LinkIndex(['A/Task.md']);
  index.add('A/Task.md');
  index.remove('Elsewhere.md');
  assert.equal(index.resolve('[[Task]]'), 'A/Task.md');
  index.remove('A/Task.md');
  assert.equal(index.resolve('[[Task]]'), undefined);
});

test('a path names its note in any case, the last one added among notes that differ only in case', () => {
  const index = new LinkIndex(['Notes/Plan.md', 'notes/plan.md', 'Notes/Other.md', 'Notes/v1.2.md']);
  assert.equal(index.resolve('NOTES/PLAN.md'), 'notes/plan.md');
  assert.equal(index.resolve('[[Notes/other]]'), 'Notes/Other.md');
  assert.equal(index.resolve('notes/OTHER'), 'Notes/Other.md', '.md added to a path without extension');
  assert.equal(index.resolve('notes/v1.2'), undefined, 'a path with another extension gets no .md');
  index.remove('notes/plan.md');
  assert.equal(index.resolve('notes/plan.md'), 'Notes/Plan.md');
  index.add('notes/plan.md');
  assert.equal(index.resolve('Notes/Plan.md'), 'notes/plan.md');
});
