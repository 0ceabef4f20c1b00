/**
 * Renames (tasknotes-spec §5.14, §5.4.4). A task whose title is stored in its filename moves to
 * `<same folder>/<filename-safe title>.md` when the title changes; a task whose title lives in
 * frontmatter keeps its path. The title itself is always written to frontmatter.
 */
import { posix } from 'node:path';
import { invalid } from '../errors.js';
import { normalizeInside } from '../links/resolve.js';
import { filenameSafeTitle } from '../tasks/filename.js';

export type TitleStorage = 'filename' | 'frontmatter';

export function pathForRetitle(
  titleStorage: TitleStorage,
  oldPath: string,
  newTitle: string,
): { path: string; renamed: boolean } {
  if (titleStorage !== 'filename') return { path: oldPath, renamed: false };
  const dir = posix.dirname(oldPath.replace(/\\/g, '/'));
  const file = `${filenameSafeTitle(newTitle)}.md`;
  const path = dir === '.' ? file : `${dir}/${file}`;
  return { path, renamed: path !== oldPath };
}

/**
 * Validates a move: both paths must stay inside the collection and name Markdown notes. Reference
 * rewriting (links/rename.ts) only happens when asked for and the path actually changes.
 */
export function planRename(
  fromPath: string,
  toPath: string,
  updateReferences: boolean,
): { path: string; referencesUpdated: boolean } {
  const from = normalizeInside(fromPath);
  const to = normalizeInside(toPath);
  if (!to.endsWith('.md') || posix.basename(to) === '.md')
    throw invalid(`invalid_path: "${toPath}" is not a note path`);
  return { path: to, referencesUpdated: updateReferences && from !== to };
}
