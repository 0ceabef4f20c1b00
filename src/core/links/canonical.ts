/**
 * The canonical write form of a link (tasknotes-spec §8.9, §11): a wikilink `[[target#anchor|alias]]`
 * with the target's `.md` removed. Values that are not links are returned trimmed, unchanged —
 * migration never guesses a target.
 */
import { tryParseLink } from './parse.js';

export function canonicalLink(value: string): string {
  const link = tryParseLink(value);
  if (!link) return value.trim();
  const target = link.format === 'wikilink' ? link.target : link.target.replace(/\.md$/i, '');
  const anchor = link.anchor ? `#${link.anchor}` : '';
  const alias = link.alias && link.format !== 'path' ? `|${link.alias}` : '';
  return `[[${target}${anchor}${alias}]]`;
}

/**
 * The wikilink target that names the note at `path` among `allPaths` (§11.6): its file name
 * without `.md` when no other note shares that name, else its path without `.md`.
 */
export function wikilinkTarget(path: string, allPaths: readonly string[]): string {
  const withoutExt = path.replace(/\.md$/i, '');
  const name = withoutExt.slice(withoutExt.lastIndexOf('/') + 1).toLowerCase();
  const clash = allPaths.some((p) => {
    if (p === path) return false;
    const other = p.replace(/\.md$/i, '');
    return other.slice(other.lastIndexOf('/') + 1).toLowerCase() === name;
  });
  return clash ? withoutExt : withoutExt.slice(withoutExt.lastIndexOf('/') + 1);
}
