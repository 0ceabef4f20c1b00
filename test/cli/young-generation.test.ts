/**
 * The young-generation cap, in fresh node processes (a heap's sizing is per process): each keeps
 * ~40 MB of small objects in chunks, as a start-up scan does, and reports the largest young
 * generation it saw.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { YOUNG_GENERATION_CAP_BYTES } from '../../src/cli/young-generation.js';

const MODULE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../src/cli/young-generation.ts',
);

const SCRIPT = `
import { capYoungGeneration, youngGenerationBytes } from ${JSON.stringify(MODULE)};
if (process.env.CAP === '1') capYoungGeneration();
const kept = [];
let largest = 0;
for (let chunk = 0; chunk < 80; chunk++) {
  for (let i = 0; i < 5000; i++) kept.push({ title: 'Task ' + chunk + '-' + i, tags: ['work', String(i)] });
  largest = Math.max(largest, youngGenerationBytes());
  await new Promise((resolve) => setImmediate(resolve));
}
console.log(JSON.stringify({ largest, kept: kept.length }));
`;

async function largestYoungGeneration(
  env: Record<string, string>,
  nodeFlags: string[] = [],
): Promise<number> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...nodeFlags, '--import', 'tsx', '--input-type=module', '--eval', SCRIPT],
    { env: { ...process.env, ...env } },
  );
  const result = JSON.parse(stdout) as { largest: number; kept: number };
  assert.equal(result.kept, 400_000);
  return result.largest;
}

describe('young generation cap', () => {
  it('V8 grows the young generation past the cap when nothing caps it', async () => {
    assert.ok((await largestYoungGeneration({ CAP: '0' })) > YOUNG_GENERATION_CAP_BYTES);
  });

  it('stops growing at the cap', async () => {
    assert.ok((await largestYoungGeneration({ CAP: '1' })) <= YOUNG_GENERATION_CAP_BYTES);
  });

  it('leaves a young generation sized on the command line alone', async () => {
    const largest = await largestYoungGeneration({ CAP: '1' }, ['--max-semi-space-size=16']);
    assert.ok(largest > YOUNG_GENERATION_CAP_BYTES);
  });
});
