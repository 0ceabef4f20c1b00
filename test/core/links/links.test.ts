import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalLink } from '../../../src/core/links/canonical.js';
import { parseLink } from '../../../src/core/links/parse.js';
import { updateReferenceOnRename } from '../../../src/core/links/rename.js';
import { resolveLink, type LinkResolutionContext } from '../../../src/core/links/resolve.js';

test('parses the three link formats with alias and anchor', () => {
  assert.deepEqual(parseLink('[[docs/api#auth|API Reference]]'), {
    raw: '[[docs/api#auth|API Reference]]',
    target: 'docs/api',
    alias: 'API Reference',
    anchor: 'auth',
    format: 'wikilink',
    is_relative: false,
  });
  assert.equal(parseLink('[Doc](../x.md#h)').format, 'markdown');
  assert.equal(parseLink('./other.md').is_relative, true);
  for (const bad of ['task-plain', '[broken](missing', '[[broken', 'http://example.com', '', 'not a link']) {
    assert.throws(() => parseLink(bad), /invalid_link_format/, bad);
  }
});

const ctx = (over: Partial<LinkResolutionContext> = {}): LinkResolutionContext => ({
  sourcePath: 'tasks/sub/task-002.md',
  candidates: [],
  ...over,
});

test('resolves by format and refuses to leave the collection', () => {
  assert.equal(resolveLink(parseLink('[[../task-001]]'), ctx()), 'tasks/task-001.md');
  assert.equal(resolveLink(parseLink('[Doc](../../notes/doc.md)'), ctx()), 'notes/doc.md');
  assert.equal(resolveLink(parseLink('[[notes/meeting]]'), ctx()), 'notes/meeting.md');
  assert.throws(() => resolveLink(parseLink('../../../escape.md'), ctx()), /path_traversal/);
  assert.throws(() => resolveLink(parseLink('[[../../escape]]'), ctx()), /path_traversal/);
  assert.throws(() => resolveLink(parseLink('[[nothing]]'), ctx()), /unresolved_link_target/);
});

test('simple names: extension order, id match; several equally named files are ambiguous', () => {
  const name = parseLink('[[meeting-notes]]');
  const candidates = ['notes/meeting-notes.markdown', 'notes/meeting-notes.md'];
  assert.equal(
    resolveLink(name, ctx({ candidates, extensions: ['.md', '.markdown'] })),
    'notes/meeting-notes.md',
  );
  assert.equal(
    resolveLink(parseLink('[[my-id]]'), ctx({ candidates: ['a.md', 'b.md'], idIndex: { 'b.md': 'my-id' } })),
    'b.md',
  );
  // No tie-breaker picks one (not the same folder, not the shortest path).
  const shared = ['notes/shared.md', 'tasks/sub/shared.md'];
  assert.throws(() => resolveLink(parseLink('[[shared]]'), ctx({ candidates: shared })), /ambiguous_link/);
  const nested = ['lib/util.md', 'lib/nested/extra/util.md'];
  assert.throws(() => resolveLink(parseLink('[[util]]'), ctx({ candidates: nested })), /ambiguous_link/);
  // Names compare without regard to case, so two files differing only in case are ambiguous too.
  assert.throws(
    () => resolveLink(parseLink('[[a]]'), ctx({ candidates: ['x/A.md', 'y/a.md'] })),
    /ambiguous/,
  );
  assert.equal(
    resolveLink(parseLink('[[Shared]]'), ctx({ candidates: ['notes/shared.md'] })),
    'notes/shared.md',
  );
  // The host's own resolution settles it when it is one of the candidates.
  const amb = ['tasks/ambiguous.md', 'notes/ambiguous.md'];
  const host = (hostResolution: string) => ctx({ candidates: amb, hostResolution });
  assert.equal(resolveLink(parseLink('[[ambiguous]]'), host('notes/ambiguous.md')), 'notes/ambiguous.md');
  assert.throws(() => resolveLink(parseLink('[[ambiguous]]'), host('elsewhere/ambiguous.md')), /ambiguous/);
  // A candidate whose name is not the link's is no match.
  assert.throws(() => resolveLink(parseLink('[[other]]'), ctx({ candidates: ['a.md'] })), /unresolved/);
});

test('rename rewrites matching references in their own format and keeps the rest', () => {
  const move = (ref: string): string =>
    updateReferenceOnRename(ref, 'tasks/task-001.md', 'tasks/task-001-v2.md');
  assert.equal(move('[[task-001#anchor|Alias]]'), '[[task-001-v2#anchor|Alias]]');
  assert.equal(move('[Task](tasks/task-001.md#details)'), '[Task](tasks/task-001-v2.md#details)');
  assert.equal(move('[[task-999]]'), '[[task-999]]');
  assert.equal(
    updateReferenceOnRename('[L](../tasks/task-001.md)', 'tasks/task-001.md', 'archive/task-001.md'),
    '[L](../archive/task-001.md)',
  );
  // A destination written with percent-escapes is matched decoded and rewritten escaped.
  assert.equal(
    updateReferenceOnRename('[T](Target%20Note.md)', 'Tasks/Target Note.md', 'Tasks/New (draft) name.md'),
    '[T](New%20%28draft%29%20name.md)',
  );
  assert.equal(
    updateReferenceOnRename(
      '[T](../Tasks/Target%20Note.md#h)',
      'Tasks/Target Note.md',
      'Done/Target Note.md',
    ),
    '[T](../Done/Target%20Note.md#h)',
  );
});

test('canonical links are wikilinks without .md', () => {
  assert.equal(canonicalLink('[Doc](docs/doc.md#h)'), '[[docs/doc#h|Doc]]');
  assert.equal(canonicalLink('docs/doc.md'), '[[docs/doc]]');
  assert.equal(canonicalLink(' plain '), 'plain');
});
