/**
 * The line a failed start prints names the cause the user can act on: a full disk (from the free
 * space of the data dir's disk, injected here) rather than SQLite's "disk I/O error" or a bare
 * ENOSPC.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeStartError } from '../../src/cli/start-error.js';
import { LockFileError } from '../../src/core/state/instance-lock.js';
import { StateFileError } from '../../src/core/state/json-file.js';

const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('describeStartError', () => {
  it('says the disk is full when the lock file could not be written for want of space', () => {
    const err = new LockFileError('/d/taskdown.lock', enospc);
    assert.equal(
      describeStartError(err, '/d', () => 0),
      'the disk holding the data dir /d is full (0 KB free): free some space, then start again ' +
        '(cannot use the data dir lock /d/taskdown.lock: ENOSPC: no space left on device, write)',
    );
  });

  it('says the disk is full for a store that cannot be opened while little space is left', () => {
    const err = new StateFileError('/d/taskdown.sqlite', 'disk I/O error');
    assert.equal(
      describeStartError(err, '/d', () => 4096),
      'the disk holding the data dir /d is full (4 KB free): free some space, then start again ' +
        '(/d/taskdown.sqlite: disk I/O error)',
    );
  });

  it('keeps the file error as it is when the disk has room', () => {
    const err = new StateFileError('/d/taskdown.sqlite', 'file is not a database');
    assert.equal(
      describeStartError(err, '/d', () => 50e9),
      err.message,
    );
    assert.equal(describeStartError(err), err.message);
  });

  it('does not look at the disk for errors that are not about the data dir', () => {
    const err = Object.assign(new Error('listen EADDRINUSE'), {
      code: 'EADDRINUSE',
      port: 8080,
      address: '127.0.0.1',
    });
    assert.equal(
      describeStartError(err, '/d', () => assert.fail('looked at the disk')),
      'port 8080 is already in use on 127.0.0.1',
    );
  });
});
