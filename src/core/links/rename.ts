/**
 * Rewriting link references when a note is renamed (tasknotes-spec §11.6): references that point
 * at the old note are retargeted to the new one in their original format, keeping alias and
 * anchor; every other reference is returned unchanged.
 */
import { posix } from 'node:path';
import { wikilinkTarget } from './canonical.js';
import { decodeTarget, parseLinkValue, tryParseLink } from './parse.js';

const stripMd = (p: string): string => p.replace(/\\/g, '/').replace(/^\/+/, '').replace(/\.md$/i, '').trim();

/**
 * Does a link target (as written) name the note at `notePath`? Without the linking note's own
 * path a relative target cannot be resolved exactly, so it matches when it is the full path, the
 * bare note name, or a relative path ending in the note's full path (`../tasks/x.md`).
 */
function pointsAt(target: string, notePath: string): boolean {
  const t = stripMd(target);
  const note = stripMd(notePath);
  return t === note || t === posix.basename(note) || (t.startsWith('.') && t.endsWith(`/${note}`));
}

/** A percent-escape: a markdown link written with one (`Target%20Note.md`) is rewritten with them. */
const ESCAPED = /%[0-9A-Fa-f]{2}/;

/** A path as a markdown link destination: escaped as Obsidian writes it, `(`, `)` and `#` too. */
const escapeDestination = (target: string): string =>
  encodeURI(target).replace(/[()#]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function updateReferenceOnRename(reference: string, oldPath: string, newPath: string): string {
  const parsed = tryParseLink(reference);
  // A markdown link's destination is a URL: matched and moved decoded, written as it was.
  const escaped = parsed?.format === 'markdown' && ESCAPED.test(parsed.target);
  const link = parsed && escaped ? { ...parsed, target: decodeTarget(parsed.target) } : parsed;
  if (!link || !pointsAt(link.target, oldPath)) return reference;
  const anchor = link.anchor ? `#${link.anchor}` : '';
  if (link.format === 'wikilink') {
    // Wikilinks keep their style: a bare name stays a bare name, a folder path stays a path.
    const newTarget = link.target.includes('/') ? stripMd(newPath) : posix.basename(stripMd(newPath));
    return `[[${newTarget}${anchor}${link.alias ? `|${link.alias}` : ''}]]`;
  }
  const keepsExtension = /\.md$/i.test(link.target);
  // Move the link's folder part by the same step the note moved (a rename in place keeps it).
  const move = posix.relative(posix.dirname(stripMd(oldPath)), posix.dirname(stripMd(newPath)));
  const dir = posix.normalize(posix.join(posix.dirname(link.target), move));
  const newBase = posix.basename(stripMd(newPath)) + (keepsExtension ? '.md' : '');
  const moved = dir === '.' ? newBase : `${dir}/${newBase}`;
  const newTarget = escaped ? escapeDestination(moved) : moved;
  if (link.format === 'markdown') return `[${link.alias ?? ''}](${newTarget}${anchor})`;
  return newTarget;
}

/**
 * A reference known to name the note that moved from `oldPath` to `newPath`, rewritten to name it
 * at its new path in its own format: a markdown link or path moves by the same step as the note
 * (`updateReferenceOnRename`); a wikilink or a plain name takes the new note's target, keeping
 * anchor and alias — a folder-qualified one stays qualified, a bare name becomes the new name, or
 * the new path when other notes share that name (§11.6), so it never turns ambiguous.
 */
export function retargetReference(
  reference: string,
  oldPath: string,
  newPath: string,
  allPaths: readonly string[],
): string {
  const link = parseLinkValue(reference);
  if (link && link.format !== 'wikilink') {
    const moved = updateReferenceOnRename(reference, oldPath, newPath);
    if (moved !== reference) return moved;
  }
  const qualified = link?.format === 'wikilink' && link.target.includes('/');
  const target = qualified ? stripMd(newPath) : wikilinkTarget(newPath, allPaths);
  if (link && !reference.trim().startsWith('[')) return target;
  const anchor = link?.anchor ? `#${link.anchor}` : '';
  const alias = link?.alias ? `|${link.alias}` : '';
  return `[[${target}${anchor}${alias}]]`;
}
