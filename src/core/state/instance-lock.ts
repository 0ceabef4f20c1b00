/**
 * One Taskdown per data dir (docs/vault-safety.md): `taskdown.lock` in the data dir names the
 * process that owns it (pid, how to recognise that process after a pid is reused, when it
 * started, and its URL once listening). A second `serve` or `mcp` on the same data dir stops
 * with a DataDirLockedError naming the owner; a lock whose process is gone (killed with -9, or a
 * pid since reused by another program) is taken over. `readRunningServer` lets other commands
 * find a running server on a data dir (to forward to it rather than start a second one).
 *
 * Creating the file with O_EXCL decides between starters; a takeover runs under a second,
 * short-lived lock file, so two starters finding the same stale lock cannot both take it (one
 * would otherwise remove the fresh lock of the other).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, unlinkSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../logger.js';
import { writeFileAtomic } from '../vault/atomic-write.js';

export const LOCK_FILE = 'taskdown.lock';
const TAKEOVER_FILE = 'taskdown.lock.takeover';

/** What the lock file says about its owner. */
export interface LockOwner {
  pid: number;
  /** The command that holds it: `serve` or `mcp`. */
  command: string;
  /** ISO time the owner started. */
  startedAt: string;
  hostname: string;
  /** Identifies the owner's process beyond its pid (start time as the kernel reports it). */
  processStart?: string;
  /** The server's URL, once it listens. */
  url?: string;
  /** The vault it serves (absent from locks of releases before it was recorded). */
  vault?: string;
}

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    const what = [
      `taskdown ${owner.command}`,
      ...(owner.vault ? [`vault ${owner.vault}`] : []),
      `started ${owner.startedAt}`,
      ...(owner.url ? [owner.url] : []),
    ];
    super(
      `the data dir ${dataDir} is in use by process ${owner.pid} (${what.join(', ')}); stop it first, or give this one another --data-dir`,
    );
  }
}

/** The lock file cannot be used at all: it is a folder, the disk is full, … */
export class LockFileError extends Error {
  override readonly name = 'LockFileError';
  /** The cause's error code (ENOSPC, EISDIR, …), for the start's message. */
  readonly code: string | undefined;
  constructor(
    readonly file: string,
    cause: NodeJS.ErrnoException,
  ) {
    const reason =
      cause.code === 'EISDIR' ? 'it is a folder, not a file; remove it, then start again' : cause.message;
    super(`cannot use the data dir lock ${file}: ${reason}`, { cause });
    this.code = cause.code;
  }
}

/** A held lock. */
export interface DataDirLock {
  /** Records the URL the server listens on. */
  listening(url: string): Promise<void>;
  /** Removes the lock (only while it is still this process's). */
  release(): Promise<void>;
  /**
   * Writes the lock again when its file is gone (it is looked at every second: the file, or the
   * whole data dir, removed while Taskdown runs would let a second Taskdown start on the same
   * data dir). For tests.
   */
  restore(): Promise<void>;
}

export interface LockOptions {
  command: string;
  /** The vault the taker serves, recorded for `readRunningServer`'s callers and the refusal. */
  vault: string;
  log: Logger;
  /** Milliseconds to wait for a lock file another starter is still writing, or for a takeover. */
  patienceMs?: number;
}

/** Takes the data dir's lock or throws DataDirLockedError. The data dir must exist. */
export async function acquireDataDirLock(dataDir: string, options: LockOptions): Promise<DataDirLock> {
  const file = path.join(dataDir, LOCK_FILE);
  const own: LockOwner = {
    pid: process.pid,
    command: options.command,
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    hostname: os.hostname(),
    ...optional('processStart', processStart(process.pid)),
    vault: options.vault,
  };
  try {
    await take(dataDir, file, own, options);
  } catch (err) {
    if (err instanceof DataDirLockedError || (err as NodeJS.ErrnoException).code === undefined) throw err;
    throw new LockFileError(file, err as NodeJS.ErrnoException);
  }

  let current = own;
  let restoring: Promise<void> | undefined;
  const restore = (): Promise<void> =>
    (restoring ??= restoreIfGone(dataDir, file, () => current, options.log).finally(
      () => (restoring = undefined),
    ));
  const timer = setInterval(() => void restore(), RESTORE_INTERVAL_MS);
  timer.unref();
  const release = (): void => {
    clearInterval(timer);
    held.delete(release);
    if (ownedBy(file, own)) unlinkQuietly(file);
  };
  held.add(release);
  return {
    async listening(url) {
      current = { ...current, url };
      if (ownedBy(file, own)) await writeFileAtomic(file, serialize(current), { mode: 0o600 });
    },
    async release() {
      await restoring;
      release();
    },
    restore,
  };
}

/** Creates the lock file, or takes over a stale one; throws DataDirLockedError. */
async function take(dataDir: string, file: string, own: LockOwner, options: LockOptions): Promise<void> {
  const deadline = Date.now() + (options.patienceMs ?? 2_000);
  for (;;) {
    if (await createExclusive(file, own)) return;
    // Taken before the read: an unreadable lock is identified by its file, not its text.
    const stamp = fileStamp(file);
    const found = readLock(file);
    if (found === 'missing') continue;
    if (found === 'unreadable') {
      // Just created by another starter that has not written it yet, or left empty by a crash.
      if (Date.now() < deadline && ageMs(file) < 2_000) {
        await sleep(25);
        continue;
      }
    } else if (isRunning(found.owner)) {
      throw new DataDirLockedError(dataDir, found.owner);
    }
    const stale = found === 'unreadable' ? { stamp } : { text: found.text };
    if (await takeOver(dataDir, file, stale, deadline)) {
      const previous = found === 'unreadable' ? undefined : found.owner;
      options.log.warn(
        previous ? { pid: previous.pid, startedAt: previous.startedAt } : {},
        'removed the data dir lock of a Taskdown that is no longer running',
      );
    } else {
      await sleep(25);
    }
  }
}

/** Other owners of a held lock already reported. */
const warnedAbout = new Set<number>();

/** How often a held lock's file is looked at. */
const RESTORE_INTERVAL_MS = 1_000;

/**
 * Creates the lock file again when it is gone (with the data dir, when that is gone too). A file
 * there that is not this process's is left alone: another starter took a lock that was missing.
 */
async function restoreIfGone(
  dataDir: string,
  file: string,
  owner: () => LockOwner,
  log: Logger,
): Promise<void> {
  let text;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return;
  }
  if (text !== undefined) {
    const other = parseOwner(text);
    if (other && other.pid !== process.pid && !warnedAbout.has(other.pid) && isRunning(other)) {
      warnedAbout.add(other.pid);
      log.error(
        { file, pid: other.pid, startedAt: other.startedAt },
        'another Taskdown took the data dir lock while this one ran (its file had been removed): stop one of them',
      );
    }
    return;
  }
  try {
    await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
    if (await createExclusive(file, owner())) {
      log.warn({ file }, 'the data dir lock was removed while Taskdown ran; it was written again');
    }
  } catch (err) {
    log.error(
      { file, error: (err as Error).message },
      'the data dir lock was removed and could not be written again',
    );
  }
}

/** Releases of the locks this process holds: a failed start exits without its async cleanup. */
const held = new Set<() => void>();
process.on('exit', () => {
  for (const release of [...held]) release();
});

/**
 * The Taskdown that holds the data dir's lock, when its process still runs (for `taskdown mcp`
 * and others that would rather forward to a running server than start a second one).
 */
export function readRunningServer(dataDir: string): LockOwner | undefined {
  const found = readLock(path.join(dataDir, LOCK_FILE));
  return typeof found === 'object' && isRunning(found.owner) ? found.owner : undefined;
}

/** True while the owner's process runs (on this host; a lock from another host is not trusted). */
function isRunning(owner: LockOwner): boolean {
  // A data dir is per machine; a lock from another host arrived with a synced folder.
  if (owner.hostname !== os.hostname()) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false; // ESRCH: no such process
  }
  if (hasExited(owner.pid)) return false;
  // Alive: the same process, or another that got its pid? Compare start identities when known.
  if (owner.processStart === undefined) return true;
  const now = processStart(owner.pid);
  return now === undefined || now === owner.processStart;
}

/**
 * How the kernel identifies a process's start: on Linux the boot id and the start time in clock
 * ticks (/proc), on macOS and the BSDs the start time `ps` reports. Undefined where neither is
 * available (Windows): a live pid then counts as the owner.
 */
function processStart(pid: number): string | undefined {
  try {
    if (process.platform === 'linux') {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses and may contain anything.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      return `${bootId}:${fields[19]}`;
    }
    if (process.platform === 'win32') return undefined;
    const lstart = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return lstart === '' ? undefined : lstart;
  } catch {
    return undefined;
  }
}

/**
 * True for a process that has exited and waits for its parent to reap it (a zombie): `kill(pid, 0)`
 * still finds it, though it holds nothing. After kill -9 of a server whose parent reaps late (a
 * container's init, a supervisor), its lock would otherwise stay taken until the reaping.
 */
function hasExited(pid: number): boolean {
  try {
    if (process.platform === 'linux') {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The state follows the command name, which is in parentheses and may contain anything.
      const state = stat.charAt(stat.lastIndexOf(')') + 2);
      return state === 'Z' || state === 'X';
    }
    if (process.platform === 'win32') return false;
    return execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' })
      .trim()
      .startsWith('Z');
  } catch {
    return false;
  }
}

/** Creates the lock file if there is none; false when one exists. */
async function createExclusive(file: string, owner: LockOwner): Promise<boolean> {
  let handle;
  try {
    handle = await fs.open(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(serialize(owner));
    await handle.sync();
  } catch (err) {
    // A full disk: a lock file left empty would look like a starter's that is still writing.
    await handle.close();
    unlinkQuietly(file);
    throw err;
  }
  await handle.close();
  return true;
}

/** The lock file judged stale: its text, or for an unreadable one, its file (fileStamp). */
type StaleLock = { text: string } | { stamp: string | undefined };

/**
 * Removes a stale lock under the takeover lock, if the file is still the one judged stale. True
 * when it was removed or is gone: the caller then tries to create it again. False when another
 * starter is taking it over, or took it.
 *
 * Only starters holding the takeover lock remove a lock file, so the file found here stays until
 * this removes it; but another starter's exclusive create can land the moment it is missing (it
 * runs on libuv's thread pool, so even in this process it can fall between two synchronous calls
 * here). A missing file is therefore left to the exclusive create, and a file is removed only
 * when it is the very one judged stale: the same text, or, for an unreadable one, the same file
 * (another starter's new lock, unreadable until its owner has written it, is another file).
 */
async function takeOver(dataDir: string, file: string, stale: StaleLock, deadline: number): Promise<boolean> {
  const guard = path.join(dataDir, TAKEOVER_FILE);
  let handle;
  try {
    handle = await fs.open(guard, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // A takeover in progress, or one a crash interrupted (a takeover takes milliseconds): the
    // next round finds the lock taken, or the takeover lock gone.
    if (ageMs(guard) > 5_000 || Date.now() >= deadline) unlinkQuietly(guard);
    return false;
  }
  try {
    await handle.close();
    const now = readLock(file);
    if (now === 'missing') return true;
    const same =
      typeof now === 'object'
        ? 'text' in stale && now.text === stale.text
        : 'stamp' in stale && stale.stamp !== undefined && fileStamp(file) === stale.stamp;
    if (same) unlinkQuietly(file);
    return same;
  } finally {
    unlinkQuietly(guard);
  }
}

type Found = { owner: LockOwner; text: string } | 'missing' | 'unreadable';

function readLock(file: string): Found {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  const owner = parseOwner(text);
  return owner ? { owner, text } : 'unreadable';
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(text) as LockOwner;
    return Number.isInteger(owner.pid) && owner.pid > 0 ? owner : undefined;
  } catch {
    return undefined;
  }
}

function ownedBy(file: string, own: LockOwner): boolean {
  const found = readLock(file);
  return typeof found === 'object' && found.owner.pid === own.pid && found.owner.startedAt === own.startedAt;
}

const serialize = (owner: LockOwner): string => `${JSON.stringify(owner, null, 2)}\n`;

/** Which file a path holds (inode, size, times), or undefined when there is none. */
function fileStamp(file: string): string | undefined {
  const stat = statSync(file, { throwIfNoEntry: false });
  return stat && `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}

function ageMs(file: string): number {
  const stat = statSync(file, { throwIfNoEntry: false });
  return stat ? Date.now() - stat.mtimeMs : Infinity;
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
