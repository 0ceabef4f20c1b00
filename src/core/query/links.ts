/**
 * Project and dependency links as the filter sees them: `[[Target|alias]]`, `[[Target#heading]]`,
 * `[text](path.md)` or plain text, read with the spec link parser (src/core/links).
 */
import { decodeTarget, tryParseLink } from '../links/parse.js';

export interface ParsedLink {
  /** Link target without brackets, alias or heading (a decoded path for markdown links). */
  target: string;
  alias?: string;
  /** True for wikilinks and markdown links; false for plain text and paths. */
  isLink: boolean;
}

export function parseLink(raw: string): ParsedLink {
  const link = tryParseLink(raw);
  if (!link || link.format === 'path') return { target: raw.trim(), isLink: false };
  const target = link.format === 'markdown' ? decodeTarget(link.target) : link.target;
  return { target, isLink: true, ...(link.alias ? { alias: link.alias } : {}) };
}

export const withoutMd = (p: string): string => (p.toLowerCase().endsWith('.md') ? p.slice(0, -3) : p);
export const basename = (p: string): string => withoutMd(p.slice(p.lastIndexOf('/') + 1));
