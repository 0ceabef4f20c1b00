/**
 * Resolution of a parsed link to a collection-relative file path (tasknotes-spec §11.4):
 * markdown links and bare paths resolve against the source file's folder (or the root for `/…`);
 * wikilinks with a folder resolve from the root; simple wikilink names go through candidate
 * selection (resolver pass, extension order, id match, tie-breakers). A result that would leave
 * the collection is `path_traversal`; so is a relative wikilink that climbs out of the top-level
 * folder its note lives in (the reference resolves `[[../x]]` within that folder's scope).
 */
import { posix } from 'node:path';
import { invalid } from '../errors.js';
import type { ParsedLink } from './parse.js';

export interface LinkResolutionContext {
  /** Collection-relative path of the note holding the link. */
  sourcePath: string;
  /** Collection-relative paths of the files a simple name may refer to. */
  candidates: readonly string[];
  /** Extension order for names without one (§11.4.4); `.md` by default. */
  extensions?: readonly string[];
  /** Optional path → task id map for the id-match pass. */
  idIndex?: Readonly<Record<string, string>>;
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

/** Picks one of several equally named candidates: same folder, then shortest, then smallest path. */
function tieBreak(matches: string[], sourcePath: string): string {
  const dir = sourceDir(sourcePath);
  const sameDir = matches.filter((m) => sourceDir(m) === dir);
  const pool = sameDir.length > 0 ? sameDir : matches;
  return [...pool].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))[0] as string;
}

function resolveSimpleName(name: string, ctx: LinkResolutionContext): string {
  const extensions = ctx.extensions && ctx.extensions.length > 0 ? ctx.extensions : ['.md'];
  const baseName = (p: string): string => posix.basename(p);
  // Resolver pass: a candidate whose file name is the name itself or the name plus an extension.
  const named = ctx.candidates.filter(
    (c) => baseName(c) === name || extensions.some((ext) => baseName(c) === `${name}${ext}`),
  );
  const pool = named.length > 0 ? named : [...ctx.candidates];
  if (pool.length === 0) throw invalid(`unresolved_link_target: ${name}`);
  if (pool.length === 1) return pool[0] as string;
  const byId = pool.filter((c) => ctx.idIndex?.[c] === name);
  if (byId.length === 1) return byId[0] as string;
  for (const ext of extensions) {
    const withExt = pool.filter((c) => baseName(c) === `${name}${ext}`);
    if (withExt.length === 1) return withExt[0] as string;
    if (withExt.length > 1) return tieBreak(withExt, ctx.sourcePath);
  }
  return tieBreak(pool, ctx.sourcePath);
}

/** Resolves a parsed link to a normalized collection-relative path. */
export function resolveLink(link: ParsedLink, ctx: LinkResolutionContext): string {
  const { target } = link;
  if (link.format !== 'wikilink') {
    return normalizeInside(target.startsWith('/') ? target : posix.join(sourceDir(ctx.sourcePath), target));
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
