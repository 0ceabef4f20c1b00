/**
 * Resolution of a parsed link to a collection-relative file path (tasknotes-spec §11.4):
 * markdown links and bare paths resolve against the source file's folder (or the root for `/…`);
 * wikilinks with a folder resolve from the root; simple wikilink names go through the id pass and
 * then the file-name pass, where one match resolves and several are `ambiguous_link` — never a
 * guess. A result that would leave the collection is `path_traversal`; so is a relative wikilink
 * that climbs out of the top-level folder its note lives in (the reference resolves `[[../x]]`
 * within that folder's scope). Pure: which files exist is the caller's business (candidates).
 */
import { posix } from 'node:path';
import { invalid } from '../errors.js';
import { decodeTarget, type ParsedLink } from './parse.js';

export interface LinkResolutionContext {
  /** Collection-relative path of the note holding the link. */
  sourcePath: string;
  /**
   * Collection-relative paths of the files a simple name may refer to: the host's lookup of the
   * name in the link's scope. Only those whose file name is the name (plus an extension) or whose
   * id is the name are matches.
   */
  candidates: readonly string[];
  /** Extension order for names without one (§11.4.4); `.md` by default. */
  extensions?: readonly string[];
  /** Optional path → task id map for the id-match pass. */
  idIndex?: Readonly<Record<string, string>>;
  /**
   * The file the host application itself resolves this link to (Obsidian's link cache, say), when
   * there is one: of several files sharing the name, it is the one meant. Without it they are
   * ambiguous. Taskdown's server has no such host and passes none.
   */
  hostResolution?: string;
}

const HAS_EXTENSION = /\.[A-Za-z0-9]+$/;

/** Normalizes a collection-relative path; `path_traversal` when it climbs above the root. */
export function normalizeInside(pathText: string): string {
  const normalized = posix.normalize(pathText.replace(/\\/g, '/')).replace(/^\/+/, '');
  if (normalized === '..' || normalized.startsWith('../')) {
    throw invalid(`path_traversal: "${pathText}" escapes the collection root`);
  }
  return normalized === '.' ? '' : normalized;
}

function sourceDir(sourcePath: string): string {
  const dir = posix.dirname(sourcePath.replace(/\\/g, '/'));
  return dir === '.' ? '' : dir;
}

/** First folder of a collection-relative path ('' for a note at the root). */
function topFolder(pathText: string): string {
  const parts = pathText.replace(/\\/g, '/').replace(/^\/+/, '').split('/');
  return parts.length > 1 ? (parts[0] as string) : '';
}

const withExtension = (pathText: string): string =>
  HAS_EXTENSION.test(pathText) ? pathText : `${pathText}.md`;

const fileName = (p: string): string => p.slice(p.lastIndexOf('/') + 1).toLowerCase();

/**
 * Simple-name resolution (§11.4 step 3): the id pass, then the file-name pass over the
 * deduplicated candidates, one extension at a time in the configured order. File names compare
 * without regard to case, as Obsidian and case-insensitive file systems do.
 */
function resolveSimpleName(name: string, ctx: LinkResolutionContext): string {
  const extensions = ctx.extensions && ctx.extensions.length > 0 ? ctx.extensions : ['.md'];
  const pool = [...new Set(ctx.candidates.map(normalizeInside))];
  const byId = ctx.idIndex ? pool.filter((c) => ctx.idIndex?.[c] === name) : [];
  if (byId.length === 1) return byId[0] as string;
  if (byId.length > 1) throw invalid(`ambiguous_link: id "${name}" is used by ${byId.join(', ')}`);
  const wanted = name.toLowerCase();
  // A name written with its extension (`[[notes.txt]]`) first, then the configured extensions.
  for (const suffix of ['', ...extensions.map((e) => e.toLowerCase())]) {
    const matches = pool.filter((c) => fileName(c) === `${wanted}${suffix}`);
    if (matches.length === 1) return matches[0] as string;
    if (matches.length > 1) {
      const host = ctx.hostResolution === undefined ? undefined : normalizeInside(ctx.hostResolution);
      if (host !== undefined && matches.includes(host)) return host;
      throw invalid(`ambiguous_link: "${name}" names ${matches.join(', ')}; use a path to say which`);
    }
  }
  throw invalid(`unresolved_link_target: ${name}`);
}

/** Resolves a parsed link to a normalized collection-relative path. */
export function resolveLink(link: ParsedLink, ctx: LinkResolutionContext): string {
  const { target } = link;
  if (link.format !== 'wikilink') {
    const path = link.format === 'markdown' ? decodeTarget(target) : target;
    return normalizeInside(path.startsWith('/') ? path : posix.join(sourceDir(ctx.sourcePath), path));
  }
  if (link.is_relative) {
    const resolved = normalizeInside(withExtension(posix.join(sourceDir(ctx.sourcePath), target)));
    const scope = topFolder(ctx.sourcePath);
    if (scope !== '' && topFolder(resolved) !== scope) {
      throw invalid(`path_traversal: "${link.raw}" leaves the folder "${scope}" of its note`);
    }
    return resolved;
  }
  if (target.startsWith('/') || target.includes('/')) return normalizeInside(withExtension(target));
  return normalizeInside(resolveSimpleName(target, ctx));
}
