/** Command-line parsing of the store's retention flags and their environment variables. */
import assert from 'node:assert/strict';
import os from 'node:os';
import { describe, it } from 'node:test';
import { parseCommand, UsageError } from '../../src/cli/args.js';

const vault = os.tmpdir();
const retention = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const command = parseCommand(['serve', '--vault', vault, ...argv], env);
  assert.equal(command.kind, 'serve');
  return command.kind === 'serve' ? command.config.retention : undefined;
};

describe('retention flags', () => {
  it('default to 7 days and 10,000 records', () => {
    assert.deepEqual(retention([]), { maxAgeMs: 7 * 86_400_000, maxRecords: 10_000 });
  });

  it('come from flags before the environment', () => {
    assert.deepEqual(retention(['--retention-days', '1.5', '--retention-records', '500']), {
      maxAgeMs: 1.5 * 86_400_000,
      maxRecords: 500,
    });
    assert.deepEqual(retention([], { TASKDOWN_RETENTION_DAYS: '30', TASKDOWN_RETENTION_RECORDS: '20' }), {
      maxAgeMs: 30 * 86_400_000,
      maxRecords: 20,
    });
    assert.deepEqual(
      retention(['--retention-days', '2'], { TASKDOWN_RETENTION_DAYS: '30' })?.maxAgeMs,
      2 * 86_400_000,
    );
  });

  it('refuse values that are not positive numbers', () => {
    for (const argv of [
      ['--retention-days', '0'],
      ['--retention-days', '-1'],
      ['--retention-days', 'week'],
      ['--retention-records', '0'],
      ['--retention-records', '1e3'],
    ]) {
      assert.throws(() => retention(argv), UsageError, argv.join(' '));
    }
  });
});
