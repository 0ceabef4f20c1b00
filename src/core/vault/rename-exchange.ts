/**
 * Swapping two paths in one step (Linux `renameat2(RENAME_EXCHANGE)`, macOS
 * `renamex_np(RENAME_SWAP)`), which Node's fs does not offer: a note write uses it to put the new
 * text in place and take out, in the same step, whatever the path held (checked-replace.ts,
 * docs/vault-safety.md). It comes from the small native addon in native/rename-exchange, built at
 * install (scripts/build-native.mjs); where that could not be built, or on other systems, there is
 * no swap and writes use a hard-link pin and a rename instead.
 */
import { constants } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../version.js';
import type { Logger } from '../logger.js';

/** Swaps what `a` and `b` name; throws an error with the usual `code` (ENOENT, EINVAL, …). */
export type Swap = (a: string, b: string) => void;

/** Where scripts/build-native.mjs leaves the addon. */
const ADDON_PATH = path.join(PACKAGE_ROOT, 'native', 'rename-exchange', 'build', 'Release', 'rename_exchange.node');

/** Error codes meaning "this file system (or kernel) cannot swap": the caller falls back. */
export const CANNOT_SWAP = new Set(['EINVAL', 'ENOSYS', 'ENOTSUP', 'EOPNOTSUPP']);

const ERRNO_NAMES = new Map(Object.entries(constants.errno).map(([name, value]) => [value, name]));

let loaded: Swap | null | undefined;

/** The swap of this system, or undefined when the addon is not built or cannot load here. */
export function systemSwap(): Swap | undefined {
  if (loaded === undefined) loaded = load();
  return loaded ?? undefined;
}

function load(): Swap | null {
  let addon: { exchange(a: string, b: string): number };
  try {
    addon = createRequire(import.meta.url)(ADDON_PATH) as typeof addon;
  } catch {
    return null;
  }
  return (a, b) => {
    const errno = addon.exchange(a, b);
    if (errno === 0) return;
    const name = ERRNO_NAMES.get(errno) ?? `E${errno}`;
    const err: NodeJS.ErrnoException = new Error(`${name}: cannot swap '${a}' and '${b}'`);
    err.code = name;
    err.errno = -errno;
    err.syscall = process.platform === 'darwin' ? 'renamex_np' : 'renameat2';
    throw err;
  };
}

let told = false;

/** Warns once per process when this system could swap but the addon is missing (not built). */
export function warnIfNoSwap(log: Logger): void {
  if (told || systemSwap() || !['linux', 'darwin'].includes(process.platform)) return;
  told = true;
  log.warn(
    { addon: ADDON_PATH },
    'notes are written without the rename-exchange addon (not built: run `npm run build:native`); docs/vault-safety.md says what that leaves open',
  );
}
