/**
 * The tasknotes-spec conformance suite (4,980 fixture cases) through conformance/adapter.mjs.
 * One test per fixture file; a file fails when any case that is not listed in
 * conformance/WAIVERS.md fails. The per-file table is printed at the end.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { execute } from '../../conformance/adapter.mjs';
import {
  fixturesDir,
  formatTable,
  loadSuite,
  loadWaivers,
  runSuite,
  skipReason,
  type Claim,
  type FileTally,
} from '../../conformance/lib/suite.mjs';

const suite = loadSuite();
const waivers = loadWaivers();
const tallies: FileTally[] = [];

describe('tasknotes-spec conformance', () => {
  after(() => {
    console.log(['', ...formatTable(tallies)].join('\n'));
  });

  test('the claim covers every profile and capability the fixtures use', async () => {
    const claim = (await execute('meta.claim', {})).result as Claim;
    const skipped = suite.flatMap(({ fixtures }) => fixtures).filter((f) => skipReason(f, claim));
    assert.deepEqual(
      skipped.map((f) => f.id),
      [],
    );
  });

  test('the fixtures in the repository are complete: every file and case of the manifest', () => {
    const manifest = JSON.parse(readFileSync(path.join(fixturesDir(), 'manifest.json'), 'utf8')) as {
      totalCases: number;
      files: { file: string; cases: number }[];
    };
    assert.deepEqual(
      suite.map(({ file, fixtures }) => ({ file, cases: fixtures.length })),
      manifest.files,
    );
    assert.equal(
      suite.reduce((sum, { fixtures }) => sum + fixtures.length, 0),
      manifest.totalCases,
    );
  });

  test('every waiver names an existing fixture case', () => {
    const ids = new Set(suite.flatMap(({ fixtures }) => fixtures.map((f) => f.id)));
    assert.deepEqual(
      [...waivers].filter((id) => !ids.has(id)),
      [],
    );
  });

  for (const entry of suite) {
    test(entry.file, async () => {
      const { files } = await runSuite({ execute }, { suite: [entry], waivers });
      const tally = files[0]!;
      tallies.push(tally);
      const failures = tally.failures.filter((f) => !f.waived);
      assert.equal(
        failures.length,
        0,
        failures.map((f) => `${f.id} (${f.operation}): ${f.message}`).join('\n'),
      );
      // A waiver that no longer fails is stale and must be removed from WAIVERS.md.
      const stale = entry.fixtures.filter(
        (f) => waivers.has(f.id) && !tally.failures.some((x) => x.id === f.id),
      );
      assert.deepEqual(
        stale.map((f) => f.id),
        [],
      );
    });
  }
});
