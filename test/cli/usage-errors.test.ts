/** Command-line errors in Taskdown's own words, in process (the exit codes: test/integration/cli). */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseCommand, UsageError } from '../../src/cli/args.js';

const vault = mkdtempSync(path.join(os.tmpdir(), 'taskdown-args-'));
after(() => rmSync(vault, { recursive: true, force: true }));

function usageError(argv: string[]): string {
  try {
    parseCommand(argv, {});
  } catch (err) {
    assert.ok(err instanceof UsageError, String(err));
    return err.message;
  }
  assert.fail(`accepted: ${argv.join(' ')}`);
}

describe('command-line errors', () => {
  it("name the option in the project's words, never parseArgs' advice about positionals", () => {
    assert.equal(
      usageError(['serve', '--vault', vault, '--bogus']),
      'unknown option --bogus (see "taskdown --help")',
    );
    assert.equal(usageError(['serve', '-x']), 'unknown option -x (see "taskdown --help")');
    assert.equal(usageError(['serve', '--vault']), '--vault needs a value (see "taskdown --help")');
    assert.equal(
      usageError(['serve', '--vault', vault, '--create-demo=yes']),
      '--create-demo takes no value',
    );
    for (const argv of [['--bogus'], ['serve', '--port']])
      assert.doesNotMatch(usageError(argv), /positional|'--/);
  });

  it('say how to give a value that starts with "-"', () => {
    assert.equal(
      usageError(['serve', '--vault', vault, '--port', '-1']),
      '--port needs a value: "-1" reads as an option (write --port=-1 for a value that starts with "-")',
    );
    assert.equal(
      usageError(['serve', '--vault', vault, '--port=-1']),
      'invalid port "-1" (expected 0-65535)',
    );
  });

  it('refuse the options of serve in check', () => {
    for (const option of ['--port=9', '--token=t', '--create-demo', '--validation=strict']) {
      assert.match(
        usageError(['check', '--vault', vault, option]),
        /^--[a-z-]+ is an option of "taskdown serve", not of "taskdown check"$/,
      );
    }
    assert.equal(parseCommand(['check', '--vault', vault, '--json'], {}).kind, 'check');
  });

  it('name a data dir or a demo vault that cannot be made where a file stands', () => {
    const file = path.join(vault, 'file.txt');
    writeFileSync(file, 'x');
    assert.equal(
      usageError(['serve', '--vault', vault, '--data-dir', file]),
      `data dir ${file} is not a folder`,
    );
    assert.equal(
      usageError(['serve', '--vault', vault, '--data-dir', path.join(file, 'a', 'b')]),
      `data dir ${path.join(file, 'a', 'b')} cannot be created: ${file} is not a folder`,
    );
    assert.equal(
      usageError(['serve', '--vault', path.join(file, 'demo'), '--create-demo']),
      `vault ${path.join(file, 'demo')} cannot be created: ${file} is not a folder`,
    );
  });

  it('suggest --create-demo when the vault folder does not exist', () => {
    const missing = path.join(vault, 'missing');
    assert.equal(
      usageError(['serve', '--vault', missing]),
      `vault folder ${missing} does not exist (check the path, or add --create-demo to start with a demo vault there)`,
    );
    const command = parseCommand(['serve', '--vault', missing, '--create-demo'], {});
    assert.equal(command.kind === 'serve' && command.createDemo, true);
  });
});
