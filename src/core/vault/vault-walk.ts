/**
 * Which vault files are candidate notes, and the walk that finds them. Hidden folders
 * (`.obsidian`, `.trash`, `.git`, the default data dir), the data dir and temp files of atomic
 * writes are never notes. Links follow the rule of vault-entry.ts: the walk enters real folders
 * only (a folder link's directory entry is no directory), and a note that is a link counts when
 * its target may be used. A start's walk runs on the reader thread (note-reader-thread.ts), so
 * this module imports nothing that thread does not need.
 */
import { opendirSync } from 'node:fs';
import path from 'node:path';
import { isTempFileName } from './atomic-write.js';
import { isReservedVaultPath, type VaultPathPolicy } from './paths.js';
import { fileLinkTarget } from './vault-entry.js';

/** True for a vault-relative folder that the scanner and watcher never enter. */
export function isIgnoredFolder(policy: VaultPathPolicy, rel: string): boolean {
  if (rel === '') return false;
  const name = rel.split('/').pop() ?? '';
  return name.startsWith('.') || name === 'node_modules' || isReservedVaultPath(policy, rel);
}

/** True for a file name (no folder) that can hold a note: `.md`, not hidden, not a temp file. */
function isNoteFileName(name: string): boolean {
  return name.toLowerCase().endsWith('.md') && !name.startsWith('.') && !isTempFileName(name);
}

/** True for a vault-relative file path that can hold a task note. */
export function isCandidateNote(policy: VaultPathPolicy, rel: string): boolean {
  const segments = rel.split('/');
  if (!isNoteFileName(segments.pop() ?? '')) return false;
  let folder = '';
  for (const seg of segments) {
    folder = folder === '' ? seg : `${folder}/${seg}`;
    if (isIgnoredFolder(policy, folder)) return false;
  }
  return true;
}

/** Candidate notes and the folders that were entered (vault-relative, unsorted). */
export interface VaultWalk {
  notes: string[];
  /** Every non-ignored folder walked, the start folder included (`''` is the vault root). */
  folders: string[];
  /** The notes that are file links (their targets are watched separately). */
  links: string[];
  /** Temp files of atomic writes (crash debris at start; see crash-debris.ts). */
  temps: string[];
  /**
   * Folders that could not be listed (no permission: a `lost+found` at the root of a drive, a
   * folder another user keeps private). Their notes are not served; the rest of the vault is.
   */
  unlisted: string[];
}

/**
 * Walks the vault (or one folder of it, e.g. a folder created after startup); notes and folders
 * come in no particular order. Synchronous, like the reads that follow it: listing a folder is a
 * few system calls, and an asynchronous walk only added a thread-pool round trip per folder to the
 * start. Folders are read a few dozen entries at a time (`opendirSync`), not listed whole
 * (`readdirSync`, which makes and sorts every entry of a folder before the first is looked at):
 * on the 100,000-task bench vault 53–76 ms against 89–235 ms (Node 20.20), and a walk with a
 * `limit` gives up (returns undefined) as soon as it has found more notes than that, however
 * large the folder it is in.
 */
export function walkVault(policy: VaultPathPolicy, from?: string): VaultWalk;
export function walkVault(policy: VaultPathPolicy, from: string, limit: number): VaultWalk | undefined;
export function walkVault(policy: VaultPathPolicy, from = '', limit = Infinity): VaultWalk | undefined {
  const notes: string[] = [];
  const folders: string[] = [];
  const links: string[] = [];
  const temps: string[] = [];
  const unlisted: string[] = [];
  const walk = (relDir: string): void => {
    let dir;
    try {
      dir = opendirSync(path.join(policy.root, relDir), { bufferSize: LIST_BATCH });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      // One folder the server may not list does not keep the vault from being served (the root
      // itself does: that is a vault it cannot serve at all).
      if ((code === 'EACCES' || code === 'EPERM') && relDir !== '') {
        unlisted.push(relDir);
        return;
      }
      throw err;
    }
    folders.push(relDir);
    try {
      for (let entry = dir.readSync(); entry !== null && notes.length <= limit; entry = dir.readSync()) {
        const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!isIgnoredFolder(policy, rel)) walk(rel);
        } else if (entry.isFile() && isNoteFileName(entry.name)) {
          // The folder was checked on the way down: only the name is left to check.
          notes.push(rel);
        } else if (entry.isSymbolicLink() && isNoteFileName(entry.name)) {
          if (fileLinkTarget(policy, rel, path.join(policy.root, relDir, entry.name)).kind === 'file') {
            notes.push(rel);
            links.push(rel);
          }
        } else if (entry.name.startsWith('.') && isTempFileName(entry.name) && !entry.isDirectory()) {
          temps.push(rel);
        }
      }
    } finally {
      dir.closeSync();
    }
  };
  walk(from);
  return notes.length > limit ? undefined : { notes, folders, links, temps, unlisted };
}

/** Directory entries read per system call of a walk (see walkVault). */
const LIST_BATCH = 32;

/**
 * The walk of a whole vault with its notes sorted (the default sort compares code units, as the
 * index's order does), so a snapshot is matched by merging two sorted lists and the index never
 * sorts a shuffled list. A start's reader thread is given this walk (note-prefetch.ts).
 */
export function sortedWalk(policy: VaultPathPolicy): VaultWalk {
  const walk = walkVault(policy);
  walk.notes.sort();
  return walk;
}

/**
 * A file name that is not UTF-8 (Latin-1 names from an old archive, say) is listed with U+FFFD in
 * place of its odd bytes, and no file has that name: opening it finds nothing. Such a note cannot
 * be served under any path the API could name, so the scan and the watcher say why it is missing.
 */
export const NOT_UTF8_NAME = 'its file name is not valid UTF-8; rename the file to serve it';

/** Whether a path that names no file may be a name that is not UTF-8, as listed (see NOT_UTF8_NAME). */
export const isMisnamed = (rel: string): boolean => rel.includes('\uFFFD');
