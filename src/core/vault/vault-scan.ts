/**
 * Which vault files are candidate notes, and the initial walk that finds them. Hidden folders
 * (`.obsidian`, `.trash`, `.git`, the default data dir), the data dir and temp files of atomic
 * writes are never notes.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isTempFileName } from './atomic-write.js';
import { isReservedVaultPath, type VaultPathPolicy } from './paths.js';

const toPosix = (p: string): string => p.split(path.sep).join('/');

export function relativeToVault(root: string, abs: string): string {
  return toPosix(path.relative(root, abs));
}

/** True for a vault-relative folder that the scanner and watcher never enter. */
export function isIgnoredFolder(policy: VaultPathPolicy, rel: string): boolean {
  if (rel === '') return false;
  const name = rel.split('/').pop() ?? '';
  return name.startsWith('.') || name === 'node_modules' || isReservedVaultPath(policy, rel);
}

/** True for a vault-relative file path that can hold a task note. */
export function isCandidateNote(policy: VaultPathPolicy, rel: string): boolean {
  if (!rel.toLowerCase().endsWith('.md')) return false;
  const segments = rel.split('/');
  const name = segments.pop() ?? '';
  if (isTempFileName(name) || name.startsWith('.')) return false;
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
}

/** Walks the vault (or one folder of it, e.g. a folder created after startup). */
export async function walkVault(policy: VaultPathPolicy, from = ''): Promise<VaultWalk> {
  const notes: string[] = [];
  const folders: string[] = [];
  const walk = async (relDir: string): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(path.join(policy.root, relDir), { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw err;
    }
    folders.push(relDir);
    const subdirs: string[] = [];
    for (const entry of entries) {
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!isIgnoredFolder(policy, rel)) subdirs.push(rel);
      } else if (entry.isFile() && isCandidateNote(policy, rel)) {
        notes.push(rel);
      }
    }
    await Promise.all(subdirs.map(walk));
  };
  await walk(from);
  return { notes, folders };
}

/** Every candidate note under the vault root (vault-relative, unsorted). */
export async function listCandidateNotes(policy: VaultPathPolicy): Promise<string[]> {
  return (await walkVault(policy)).notes;
}
