// Loads the fixture suite, decides which fixtures a claim covers (as tasknotes-spec's runner guide says), runs
// them through an adapter and tallies pass/fail/skip per file. Shared by `conformance/run.mjs`
// and `test/conformance/conformance.test.ts`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyAssertion } from './matchers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const projectRoot = path.resolve(here, '..', '..');

/**
 * Where the fixtures live: TASKDOWN_CONFORMANCE_DIR (another checkout of them), else the copy in
 * this repository (conformance/tasknotes-spec, with its licence and upstream commit).
 */
export function fixturesDir() {
  return process.env.TASKDOWN_CONFORMANCE_DIR || path.join(projectRoot, 'conformance', 'tasknotes-spec');
}

/** [{file, fixtures}] in manifest order. */
export function loadSuite(dir = fixturesDir()) {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  return manifest.files.map(({ file }) => ({
    file,
    fixtures: JSON.parse(readFileSync(path.join(dir, 'fixtures', file), 'utf8')),
  }));
}

/** Waived case ids: every `- \`id\`` bullet in conformance/WAIVERS.md. */
export function loadWaivers(file = path.join(projectRoot, 'conformance', 'WAIVERS.md')) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return new Set();
  }
  return new Set([...text.matchAll(/^\s*[-*]\s+`([^`]+)`/gm)].map((m) => m[1]));
}

function expandProfiles(profiles) {
  const expanded = new Set(profiles);
  if (expanded.has('extended')) {
    expanded.add('recurrence');
    expanded.add('core-lite');
  }
  if (expanded.has('recurrence')) expanded.add('core-lite');
  return expanded;
}

/** Why a fixture is skipped under `claim`, or null when it must run. */
export function skipReason(fixture, claim) {
  if (!expandProfiles(claim.profiles ?? []).has(fixture.profile))
    return `profile ${fixture.profile} not claimed`;
  const missing = (fixture.requires ?? []).filter((cap) => !(claim.capabilities ?? []).includes(cap));
  return missing.length > 0 ? `missing capability: ${missing.join(', ')}` : null;
}

/**
 * Runs every fixture. Returns {claim, files: [{file, passed, failed, waived, skipped, failures}]}
 * where failures are [{id, operation, message, waived}].
 */
export async function runSuite(adapter, { suite = loadSuite(), waivers = loadWaivers() } = {}) {
  const claimEnvelope = await adapter.execute('meta.claim', {});
  if (!claimEnvelope?.ok) throw new Error(`meta.claim failed: ${JSON.stringify(claimEnvelope)}`);
  const claim = claimEnvelope.result;
  const files = [];
  for (const { file, fixtures } of suite) {
    const tally = { file, passed: 0, failed: 0, waived: 0, skipped: 0, failures: [] };
    for (const fixture of fixtures) {
      if (skipReason(fixture, claim)) {
        tally.skipped += 1;
        continue;
      }
      let envelope;
      try {
        // A copy (fixtures are plain JSON), so an adapter that mutates its input cannot change
        // what the $ref directives of the assertion see.
        envelope = await adapter.execute(fixture.operation, JSON.parse(JSON.stringify(fixture.input ?? {})));
      } catch (error) {
        envelope = { thrown: String(error?.stack ?? error) };
      }
      const message = applyAssertion(fixture, envelope);
      if (message === null) {
        tally.passed += 1;
        continue;
      }
      const waived = waivers.has(fixture.id);
      if (waived) tally.waived += 1;
      else tally.failed += 1;
      tally.failures.push({ id: fixture.id, operation: fixture.operation, message, waived });
    }
    files.push(tally);
  }
  return { claim, files };
}

/** The per-file table as text lines. */
export function formatTable(files) {
  const header = ['file', 'passed', 'failed', 'waived', 'skipped'];
  const rows = files.map((f) => [f.file, f.passed, f.failed, f.waived, f.skipped].map(String));
  const total = ['total', ...[1, 2, 3, 4].map((i) => String(rows.reduce((sum, r) => sum + Number(r[i]), 0)))];
  const all = [header, ...rows, total];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  return all.map((r) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '),
  );
}
