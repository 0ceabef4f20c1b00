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
