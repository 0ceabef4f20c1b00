import assert from 'node:assert/strict';
import { test } from 'node:test';
import { execute } from '../../src/conformance/execute.js';
import { conformanceMetadata } from '../../src/conformance/metadata.js';

test('unknown operations and bad inputs answer with failure envelopes, never throws', async () => {
  assert.deepEqual(await execute('nope.nothing', {}), {
    ok: false,
    error: 'unsupported_operation:nope.nothing',
  });
  for (const input of [null, undefined, 42, 'text', []]) {
    const envelope = await execute('date.parse_utc', input);
    assert.equal(envelope.ok, false);
    assert.match(envelope.error!, /Invalid date/);
  }
  const thrown = await execute('link.resolve', { raw: '[[../../../x]]', sourcePath: 'a/b.md' });
  assert.equal(thrown.ok, false);
  assert.deepEqual(thrown.error_details, { code: 'INVALID' });
});

test('meta.claim answers the metadata the adapter exports', async () => {
  const claim = await execute('meta.claim', {});
  assert.deepEqual(claim.result, {
    ...conformanceMetadata,
    profiles: [...conformanceMetadata.profiles],
    capabilities: [...conformanceMetadata.capabilities],
    validation_modes: [...conformanceMetadata.validation_modes],
  });
  assert.deepEqual((await execute('meta.has_capability', { capability: 'links' })).result, { value: true });
  assert.deepEqual((await execute('meta.has_profile', { profile: 'bogus' })).result, { value: false });
});

test('recurrence operations are routed to the recurrence module', async () => {
  const envelope = await execute('recurrence.effective_state', {
    targetDate: '2026-02-21',
    completeInstances: [],
    skippedInstances: ['2026-02-21'],
  });
  assert.deepEqual(envelope, { ok: true, result: { value: 'skipped' } });
});
