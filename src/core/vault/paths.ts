/**
 * Path safety for everything addressed by a client-supplied, vault-relative path (task ids,
 * transform files, ICS vault files). A path is accepted only if it stays inside the vault and
 * does not reach into `.obsidian/` (host application config, read-only for us) or the data dir
 * (secrets). Every file access from an id goes through `resolveVaultPath` first.
 */
import path from 'node:path';
import { invalid } from '../errors.js';

export interface VaultPathPolicy {
  /** Absolute vault root. */
  root: string;
  /** Absolute data dir; reserved when it lies inside the vault. */
  dataDir: string;
}

export interface ResolvedPath {
  /** Normalised vault-relative path with forward slashes, e.g. `TaskNotes/Tasks/A.md`. */
  rel: string;
  /** Absolute filesystem path. */
  abs: string;
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/**
 * Validates a client-supplied vault-relative path. `what` names the thing in the error message
 * ("task id", "transform file").
 */
export function resolveVaultPath(policy: VaultPathPolicy, input: string, what = 'path'): ResolvedPath {
  if (typeof input !== 'string' || input.length === 0) throw invalid(`Invalid ${what}: empty`);
  if (input.includes('\0')) throw invalid(`Invalid ${what}: contains a NUL byte`);
  const slashed = input.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) {
    throw invalid(`Invalid ${what}: must be relative to the vault`);
  }
  if (slashed.split('/').some((seg) => seg === '..')) {
    throw invalid(`Invalid ${what}: must not contain ".." segments`);
  }
  const abs = path.resolve(policy.root, slashed);
  const rel = toPosix(path.relative(policy.root, abs));
  if (rel === '' || rel.startsWith('../') || path.isAbsolute(rel)) {
    throw invalid(`Invalid ${what}: outside the vault`);
  }
  if (isReservedVaultPath(policy, rel)) {
    throw invalid(`Invalid ${what}: points into a reserved folder`);
  }
  return { rel, abs };
}

/**
 * The vault root with a trailing separator: a walked note's absolute path is this plus its
 * vault-relative path (walked paths are already clean, so no `path.join` normalisation per note).
 */
export function rootPrefix(root: string): string {
  return root.endsWith(path.sep) ? root : `${root}${path.sep}`;
}

/** True for paths the service must never read or write as vault content. */
export function isReservedVaultPath(policy: VaultPathPolicy, rel: string): boolean {
  if (rel === '.obsidian' || rel.startsWith('.obsidian/')) return true;
  const dataRel = toPosix(path.relative(policy.root, policy.dataDir));
  if (dataRel !== '' && !dataRel.startsWith('..') && !path.isAbsolute(dataRel)) {
    if (rel === dataRel || rel.startsWith(`${dataRel}/`)) return true;
  }
  return false;
}
