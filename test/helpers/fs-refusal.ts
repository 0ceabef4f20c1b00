/**
 * Makes a synchronous `node:fs` call fail with EACCES for chosen paths, as a file or folder made
 * private would: root (which runs the tests in CI) reads anything, so the refusal is made here.
 * The ESM named imports the code under test uses are synced (syncBuiltinESMExports). Returns the
 * function that puts the call back.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { mock } from 'node:test';

export function refuseFsCall(name: 'openSync' | 'statSync', refused: (path: string) => boolean): () => void {
  const original = fs[name] as (...args: unknown[]) => unknown;
  const patched = mock.method(fs, name, ((...args: unknown[]) => {
    const target = String(args[0]);
    if (refused(target)) {
      const call = name === 'openSync' ? 'open' : 'stat';
      throw Object.assign(new Error(`EACCES: permission denied, ${call} '${target}'`), { code: 'EACCES' });
    }
    return original(...args);
  }) as never);
  syncBuiltinESMExports();
  return () => {
    patched.mock.restore();
    syncBuiltinESMExports();
  };
}
