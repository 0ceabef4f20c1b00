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
