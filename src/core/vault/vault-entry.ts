/**
 * The link rule: what a vault-relative path really leads to, and whether Taskdown may read or
 * write it (docs/vault-safety.md). The start-up scan, the watcher, every request path and every
 * other file the server opens in the vault (transform files, ICS files, the plugin's settings,
 * bases files) decide by `inspectVaultPath`, so they always agree:
 *
 * - A folder on the way that is a symbolic link is never followed, wherever it leads: outside the
 *   vault it would let a write land outside it, inside it would show the same notes under two
 *   paths (Obsidian ignores such links for the same reason).
 * - A file that is a symbolic link counts when its target is a regular file inside the vault, in
 *   the same kind of place as the link (a link in a note folder cannot reach `.obsidian/` or the
 *   data dir); it is read and written through to its target, and the link stays a link.
 * - Anything else (a link leading out, a dangling link, a FIFO or device) is refused: not a task,
 *   never opened.
 *
 * Checks are synchronous: a few cached system calls on a request path, and only links cost more
 * than one `lstat`. The scan never calls this for entries whose directory type says they are no
 * link (see vault-scan.ts).
 */
import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { conflict, type DomainError } from '../errors.js';
import { isReservedVaultPath, type VaultPathPolicy } from './paths.js';

export type VaultEntry =
  /** A regular file, or a file link whose target may be used; `real` is the file to open. */
  | { kind: 'file'; real: string; link: boolean }
  /** Nothing there; the folders leading to it are real folders inside the vault. */
  | { kind: 'missing'; real: string }
  | { kind: 'folder' }
  /**
   * Reached through a folder link, a link leading out (or dangling), or not a regular file;
   * `reason` says which, for messages.
   */
  | { kind: 'refused'; reason: string };

/** Why a refused path is refused, in words that say nothing about where a link leads. */
export const LINK_NOT_FOLLOWED = 'it is reached through a symbolic link that Taskdown does not follow';

/** Why a note is never written into `.obsidian/` or the data dir (paths.ts reserves them). */
export const RESERVED_FOLDER = 'it is inside .obsidian/ or the data dir, where Taskdown never writes';

/** CONFLICT for a write or delete of a refused path (or of a folder). */
export function refusedPath(action: string, rel: string, reason = LINK_NOT_FOLLOWED): DomainError {
  return conflict(`Cannot ${action} ${rel}: ${reason}`);
}

/**
 * Why a named pipe, a socket or a device is never read or written: not what the message for a link
 * says, and reading a named pipe would wait for a writer forever.
 */
export const NOT_A_FILE = 'it is not a regular file (a named pipe, a socket or a device)';

const REFUSED: VaultEntry = { kind: 'refused', reason: LINK_NOT_FOLLOWED };
const SPECIAL: VaultEntry = { kind: 'refused', reason: NOT_A_FILE };
const FOLDER: VaultEntry = { kind: 'folder' };

const realRoots = new WeakMap<VaultPathPolicy, string>();

/** The vault root's real path (the root itself may be reached through a link). */
export function realRootOf(policy: VaultPathPolicy): string {
  let real = realRoots.get(policy);
  if (real === undefined) {
    try {
      real = realpathSync.native(policy.root);
    } catch {
      real = path.resolve(policy.root);
    }
    realRoots.set(policy, real);
  }
  return real;
}

const absOf = (root: string, rel: string): string => (rel === '' ? root : path.join(root, ...rel.split('/')));

const toPosix = (p: string): string => p.split(path.sep).join('/');

/** Where the path leads and whether it may be used (see the module comment). */
export function inspectVaultPath(policy: VaultPathPolicy, rel: string): VaultEntry {
  if (!foldersAreReal(policy, rel)) return REFUSED;
  const abs = absOf(policy.root, rel);
  const stat = lstatOf(abs);
  if (stat === 'missing') return { kind: 'missing', real: abs };
  if (stat === 'refused') return REFUSED;
  return verdictOf(policy, rel, abs, stat);
}

/**
 * `inspectVaultPath` for a read, which opens only a 'file': where nothing is, the answer is
 * 'missing' before the folders on the way are looked at (a link among them cannot make a note that
 * is gone readable). When another program deletes a folder of 5,000 notes, the watcher reads each
 * of them once more, and the `realpath` of each note's vanished folder and of the folder above it
 * had been the largest part of that work: the scale bench's deletion took 1,080–1,650 (median
 * about 1,190) ms of server CPU with this order against 1,280–2,130 (about 1,650) ms without
 * (docs/performance.md).
 */
export function inspectVaultPathForRead(policy: VaultPathPolicy, rel: string): VaultEntry {
  const abs = absOf(policy.root, rel);
  const stat = lstatOf(abs);
  if (stat === 'missing') return { kind: 'missing', real: abs };
  if (stat === 'refused' || !foldersAreReal(policy, rel)) return REFUSED;
  return verdictOf(policy, rel, abs, stat);
}

/** The path's own lstat; 'refused' when a file stands where a folder should. */
function lstatOf(abs: string): Stats | 'missing' | 'refused' {
  try {
    return lstatSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    if (code === 'ENOTDIR') return 'refused';
    throw err;
  }
}

/** The verdict on an existing path whose folders are real folders. */
function verdictOf(policy: VaultPathPolicy, rel: string, abs: string, stat: Stats): VaultEntry {
  if (stat.isFile()) return { kind: 'file', real: abs, link: false };
  if (stat.isDirectory()) return FOLDER;
  if (!stat.isSymbolicLink()) return SPECIAL;
  return fileLinkTarget(policy, rel, abs);
}

/**
 * A file link's verdict; `abs` must be a link whose folders are real folders. Exported for the
 * scan, which knows both from its directory listing.
 */
export function fileLinkTarget(policy: VaultPathPolicy, rel: string, abs: string): VaultEntry {
  let real;
  try {
    real = realpathSync.native(abs);
  } catch {
    return REFUSED; // dangling, a loop, or unreadable
  }
  const relReal = path.relative(realRootOf(policy), real);
  if (relReal === '' || relReal.startsWith(`..${path.sep}`) || relReal === '..' || path.isAbsolute(relReal)) {
    return REFUSED;
  }
  if (areaOf(policy, toPosix(relReal)) !== areaOf(policy, rel)) return REFUSED;
  if (!statSync(real, { throwIfNoEntry: false })?.isFile()) return REFUSED;
  return { kind: 'file', real, link: true };
}

/** The kind of place a path is in: a link may only lead to the same kind. */
function areaOf(policy: VaultPathPolicy, rel: string): 'obsidian' | 'data' | 'vault' {
  if (rel === '.obsidian' || rel.startsWith('.obsidian/')) return 'obsidian';
  return isReservedVaultPath(policy, rel) ? 'data' : 'vault';
}

/**
 * True when no folder on the way to `rel` is a link (the parts that do not exist yet will be
 * created as real folders). One `realpath` of the parent compared with the expected path; only
 * a mismatch (a link, or a case or Unicode form the file system folds) looks at each folder.
 */
function foldersAreReal(policy: VaultPathPolicy, rel: string): boolean {
  const parts = rel.split('/');
  parts.pop();
  if (parts.length === 0) return true;
  const realRoot = realRootOf(policy);
  // The deepest existing folder on the way.
  let depth = parts.length;
  let real: string | undefined;
  for (; depth > 0; depth--) {
    try {
      real = realpathSync.native(absOf(policy.root, parts.slice(0, depth).join('/')));
      break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') return false; // ENOTDIR (a file on the way), ELOOP, EACCES
    }
  }
  if (real === undefined || real === absOf(realRoot, parts.slice(0, depth).join('/'))) return true;
  for (let i = 1; i <= depth; i++) {
    const stat = lstatSync(absOf(policy.root, parts.slice(0, i).join('/')), { throwIfNoEntry: false });
    if (!stat?.isDirectory()) return false;
  }
  return true;
}
