/**
 * Which folder is the task collection (tasknotes-spec §9.2): the first non-blank of the command
 * line flag, the environment variable, the persisted setting, and the working directory —
 * resolved to an absolute path (relative values against the working directory).
 */
import path from 'node:path';

export interface CollectionPathSources {
  flagPath?: string;
  envPath?: string;
  persistedPath?: string;
  /** The working directory; the process's own when absent. */
  cwd?: string;
}

const nonBlank = (value: string | undefined): string | undefined =>
  value !== undefined && value.trim() !== '' ? value.trim() : undefined;

export function resolveCollectionPath(sources: CollectionPathSources): string {
  const cwd = path.resolve(nonBlank(sources.cwd) ?? process.cwd());
  const chosen = nonBlank(sources.flagPath) ?? nonBlank(sources.envPath) ?? nonBlank(sources.persistedPath);
  return chosen === undefined ? cwd : path.resolve(cwd, chosen);
}
