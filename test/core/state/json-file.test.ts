import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { JsonStateFile, StateFileError } from '../../../src/core/state/json-file.js';
import { tempDir } from '../../helpers/temp.js';

const Schema = Type.Object({ n: Type.Integer() });

describe('JsonStateFile', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir()));
  afterEach(() => cleanup());

  it('merges a burst of saves into one write behind the current one; the file holds the last value', async () => {
    const file = new JsonStateFile(path.join(dir, 'state.json'), Schema);
    const first = file.save({ n: 0 });
    // Let the first write start; what is saved meanwhile waits for it, as one write.
    await new Promise((resolve) => setImmediate(resolve));
    const queued = Array.from({ length: 100 }, (_, i) => file.save({ n: i + 1 }));
    assert.ok(queued.every((p) => p === queued[0]));
    assert.notEqual(first, queued[0]);
    await Promise.all([first, ...queued]);
    assert.deepEqual(JSON.parse(await readFile(path.join(dir, 'state.json'), 'utf8')), { n: 100 });
    // A save after the burst is written again.
    await file.save({ n: 101 });
    assert.deepEqual(await file.load(() => ({ n: -1 })), { n: 101 });
  });

  it('refuses a file that does not match the schema, naming the file', async () => {
    await writeFile(path.join(dir, 'state.json'), '{"n":"x"}');
    const file = new JsonStateFile(path.join(dir, 'state.json'), Schema);
    await assert.rejects(
      file.load(() => ({ n: 0 })),
      StateFileError,
    );
  });
});
