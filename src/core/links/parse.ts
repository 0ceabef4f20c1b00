/**
 * Parsing of link values in link-bearing task fields (`projects`, `blocked_by.uid`), per
 * tasknotes-spec §11.2–11.3: wikilinks `[[target#anchor|alias]]`, markdown links
 * `[label](path#anchor)` and bare relative or folder paths.
 */
import { invalid } from '../errors.js';

export type LinkFormat = 'wikilink' | 'markdown' | 'path';

export interface ParsedLink {
  raw: string;
  target: string;
  alias: string | null;
  anchor: string | null;
  format: LinkFormat;
  is_relative: boolean;
}

const WIKILINK = /^\[\[([^[\]]+)\]\]$/;
const MARKDOWN = /^\[([^\]]*)\]\(([^()]+)\)$/;
/** A bare path: explicitly relative, rooted, or containing a folder separator — never a URL. */
const BARE_PATH = /^(?:\.{1,2}\/|\/)\S|^[\w.-]+\/\S/;

const isRelative = (target: string): boolean => target.startsWith('./') || target.startsWith('../');

function splitOnce(text: string, separator: string): [string, string | null] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, null] : [text.slice(0, at), text.slice(at + 1)];
}

const orNull = (text: string | null): string | null => {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

function build(raw: string, targetAndAnchor: string, alias: string | null, format: LinkFormat): ParsedLink {
  const [targetPart, anchor] = splitOnce(targetAndAnchor, '#');
  const target = targetPart.trim();
  if (target === '') throw invalid(`invalid_link_format: "${raw}" has no target`);
  return {
    raw,
    target,
    alias: orNull(alias),
    anchor: orNull(anchor),
    format,
    is_relative: isRelative(target),
  };
}

/** Parses one link value; INVALID (`invalid_link_format`) when it is none of the three forms. */
export function parseLink(value: string): ParsedLink {
  const raw = typeof value === 'string' ? value.trim() : '';
  const wiki = WIKILINK.exec(raw);
  if (wiki) {
    const [targetAndAnchor, alias] = splitOnce(wiki[1] as string, '|');
    return build(raw, targetAndAnchor, alias, 'wikilink');
  }
  const markdown = MARKDOWN.exec(raw);
  if (markdown) return build(raw, markdown[2] as string, markdown[1] as string, 'markdown');
  if (!raw.includes('://') && !/\s/.test(raw) && BARE_PATH.test(raw)) {
    return { raw, target: raw, alias: null, anchor: null, format: 'path', is_relative: isRelative(raw) };
  }
  throw invalid(`invalid_link_format: "${raw}" is not a wikilink, markdown link or path`);
}

/** Like parseLink but null instead of throwing. */
export function tryParseLink(value: string): ParsedLink | null {
  try {
    return parseLink(value);
  } catch {
    return null;
  }
}

/**
 * A stored value of a link-bearing field (`projects`, a dependency `uid`, `recurrence_parent`):
 * a link as parseLink reads it, or plain text, which names a note the way a wikilink without its
 * brackets does (`task-b`, `Folder/My task`). Null for a blank value and for text that starts
 * like a link (`[`) without being one: a broken link never silently becomes a name.
 */
export function parseLinkValue(value: unknown): ParsedLink | null {
  if (typeof value !== 'string') return null;
  const raw = value.trim();
  if (raw === '') return null;
  const link = tryParseLink(raw);
  if (link) return link;
  if (raw.startsWith('[')) return null;
  return { raw, target: raw, alias: null, anchor: null, format: 'wikilink', is_relative: isRelative(raw) };
}

/**
 * What a link value points at, as text: the target of a wikilink, the URL-decoded target of a
 * markdown link, a path, or the plain text itself (a broken link is returned as written).
 */
export function linkTarget(value: string): string {
  const link = parseLinkValue(value);
  if (!link) return value.trim();
  return link.format === 'markdown' ? decodeTarget(link.target) : link.target;
}

/** A markdown link's target with %-escapes decoded (a malformed escape is kept as written). */
export function decodeTarget(target: string): string {
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}

/** Is the value written as a link (a wikilink or a markdown link), not as a path or plain text? */
export function isLinkSyntax(value: string): boolean {
  const format = tryParseLink(value)?.format;
  return format === 'wikilink' || format === 'markdown';
}
