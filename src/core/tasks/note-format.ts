/**
 * The Markdown note layout: `---\n<yaml>---\n` frontmatter followed by the body (as in the
 * TaskNotes plugin). Updates change only the keys they touch, as text edits (frontmatter-edit.ts),
 * and keep every other key's exact text, its position and its comments, and the body byte for byte.
 *
 * YAML is parsed with the 1.2 core schema: `due: 2025-01-15` stays a string, never a Date.
 *
 * Two parsers, one per job: reads (the 10,000-note startup scan, every external edit) use js-yaml,
 * about 3x faster than building a `yaml` Document, behind the plain-YAML fast path (plain-yaml.ts,
 * whose measured gain is stated there) for typical frontmatter; writes parse the note's current
 * text into a `yaml` Document at write time, for the positions of its keys and for re-printing
 * the blocks a text edit does not handle.
 * The read schema is tuned so both parsers give the same values (test/core/tasks/note-format.test.ts).
 */
import jsyaml from 'js-yaml';
import { isDeepStrictEqual } from 'node:util';
import { Document, parseDocument } from 'yaml';
import { detachString } from '../detach-string.js';
import { editFrontmatterText, YAML_OUT, type FrontmatterChanges } from './frontmatter-edit.js';
import { reprintFrontmatter } from './frontmatter-reprint.js';
import { readPlainYaml } from './plain-yaml.js';

// An empty block (`---\n---`) does not match, so such a note is all body (as in the TaskNotes plugin).
const FRONTMATTER_RE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export interface ParsedNote {
  /** Parsed frontmatter mapping (plain JS values), or null when the note has none. */
  frontmatter: Record<string, unknown> | null;
  /** `details`: the body with leading blank lines and trailing whitespace removed, LF newlines. */
  details: string;
}

export class FrontmatterError extends Error {
  override readonly name = 'FrontmatterError';
}

interface Split {
  yaml: string;
  /** Everything after the closing delimiter line, untouched. */
  rest: string;
}

/**
 * A byte order mark some Windows editors write before the text: the frontmatter follows it, and
 * a write keeps it (see updateNote).
 */
const BOM = '\uFEFF';

function split(text: string): Split | null {
  const start = text.startsWith(BOM) ? BOM.length : 0;
  const m = FRONTMATTER_RE.exec(start === 0 ? text : text.slice(start));
  if (!m) return null;
  return { yaml: m[1]!, rest: text.slice(start + m[0].length) };
}

function toDetails(body: string): string {
  // trim() strips exactly what \s matches (white space and line terminators).
  return (body.includes('\r') ? body.replace(/\r\n/g, '\n') : body).trim();
}

// YAML 1.2 core integers, as the `yaml` package (the write path) reads them. js-yaml's own int
// type also reads `0b101` and `1_000`, which YAML 1.2 core keeps as strings.
const CORE_INT = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;
const READ_SCHEMA = jsyaml.CORE_SCHEMA.extend({
  implicit: [
    new jsyaml.Type('tag:yaml.org,2002:int', {
      kind: 'scalar',
      resolve: (data: string | null) => data !== null && CORE_INT.test(data),
      construct: (data: string): number =>
        data.startsWith('0o')
          ? parseInt(data.slice(2), 8)
          : data.startsWith('0x')
            ? parseInt(data.slice(2), 16)
            : Number(data),
    }),
  ],
});

/**
 * Aliases can expand exponentially; such (rare) frontmatter goes through `yaml`, which caps them.
 * An anchor or alias starts a node: after a space, a line start or a flow indicator, so a title
 * such as `R&D *urgent*` stays on the faster path.
 */
const MAY_HAVE_ALIASES = /(?:^|[\s[{,])&[^\s[\]{},][\s\S]*(?:^|[\s[{,])\*[^\s[\]{},]/m;

/**
 * Plain JS value of a frontmatter block: the plain-YAML fast path when the block is in its subset,
 * else js-yaml (`json: true` lets a repeated key win, like `uniqueKeys: false`).
 */
function readYaml(yaml: string): unknown {
  // The parsers' strings are slices of the note text; a clone holds copies (see detach-string.ts).
  return readPlainYaml(yaml) ?? structuredClone(readYamlFull(yaml));
}

/** The general read path (js-yaml; `yaml` when aliases appear): what the fast path must agree with. */
export function readYamlFull(yaml: string): unknown {
  if (MAY_HAVE_ALIASES.test(yaml)) return parseYaml(yaml).toJS({ maxAliasCount: 100 });
  try {
    return jsyaml.load(yaml, { schema: READ_SCHEMA, json: true });
  } catch (err) {
    throw new FrontmatterError(err instanceof Error ? err.message : String(err));
  }
}

function parseYaml(yaml: string): Document.Parsed {
  const doc = parseDocument(yaml, { schema: 'core', uniqueKeys: false, prettyErrors: true });
  if (doc.errors.length > 0) throw new FrontmatterError(doc.errors[0]!.message);
  return doc;
}

/**
 * Reads a note. Throws FrontmatterError for a frontmatter block that is not valid YAML; a note
 * without frontmatter, or whose frontmatter is not a mapping, has `frontmatter: null`.
 */
export function parseNote(text: string): ParsedNote {
  const parts = split(text);
  if (!parts) return { frontmatter: null, details: detachString(toDetails(text)) };
  const js = readYaml(parts.yaml);
  const frontmatter =
    js && typeof js === 'object' && !Array.isArray(js) ? (js as Record<string, unknown>) : null;
  return { frontmatter, details: detachString(toDetails(parts.rest)) };
}

/** New note content: `---\n<yaml>---\n\n` plus `<details>\n` when there is a body. */
export function serializeNewNote(frontmatter: Record<string, unknown>, details: string): string {
  const doc = new Document(frontmatter);
  const body = details.replace(/\r\n/g, '\n').trim();
  return `---\n${doc.toString(YAML_OUT)}---\n\n${body === '' ? '' : `${body}\n`}`;
}

/** The frontmatter `yaml` reads as, with `changes` made: what an updated note must read as. */
function changedValues(yaml: string | undefined, changes: FrontmatterChanges): Record<string, unknown> {
  const read = yaml === undefined ? undefined : readYaml(yaml);
  const values = (read && typeof read === 'object' && !Array.isArray(read) ? read : {}) as Record<
    string,
    unknown
  >;
  for (const [key, value] of changes) {
    if (value === undefined) delete values[key];
    // Defined, not assigned: a `__proto__` key is data here.
    else Object.defineProperty(values, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return values;
}

/**
 * Applies key changes to a note's frontmatter, preserving untouched keys, their order and
 * comments. `details` replaces the body when given (rebuilt as `\n<details>\n`); otherwise the
 * body is kept exactly. The note keeps its byte order mark, and a note with CRLF line endings
 * (its first line's) gets CRLF in what is written, so a Windows editor's note never mixes both.
 * Throws FrontmatterError when the block cannot be written so that it reads as the changes and
 * nothing else changed (the caller writes nothing).
 */
export function updateNote(text: string, changes: FrontmatterChanges, details?: string): string {
  const bom = text.startsWith(BOM) ? BOM : '';
  const note = bom === '' ? text : text.slice(bom.length);
  // What this writes (the block, a new body) takes the note's line ending; a kept body stays as is.
  const eol = /^[^\n]*\r\n/.test(note) ? '\r\n' : '\n';
  const lines = (generated: string): string => (eol === '\n' ? generated : generated.replace(/\n/g, eol));
  const parts = split(note);
  let rest: string;
  if (details !== undefined) {
    const body = details.replace(/\r\n/g, '\n').replace(/\s+$/, '');
    rest = lines(body.trim() === '' ? '\n' : `\n${body}\n`);
  } else {
    rest = parts ? parts.rest : note === '' ? lines('\n') : `${eol}${note}`;
  }
  const doc = parts ? parseYaml(parts.yaml) : new Document({});
  const expected = changedValues(parts?.yaml, changes);
  // The note as it will be read back must hold exactly the changed values and end its block
  // where the body starts; the first way of writing it that does is the one written. Each later
  // way keeps less of how the block was written.
  const ways: Array<() => string | null> = [
    () => (parts ? editFrontmatterText(parts.yaml, doc, changes, eol) : null),
    () => lines(reprintFrontmatter(doc.clone(), changes, true)),
    () => lines(reprintFrontmatter(doc.clone(), changes, false)),
  ];
  for (const way of ways) {
    let yaml: string | null;
    try {
      yaml = way();
    } catch {
      continue; // the library refused to print it (an alias left without its anchor)
    }
    if (yaml === null) continue;
    // A block that ends in a kept blank line (`|+`) needs one more: the split takes one.
    for (const block of [yaml, `${yaml}${eol}`]) {
      const written = `${bom}${lines('---\n')}${block}${lines('---\n')}${rest}`;
      if (readsAs(written.slice(bom.length), expected, rest)) return written;
    }
  }
  throw new FrontmatterError('its frontmatter cannot be changed without changing other values in it');
}

/** Whether a written note reads as `expected` and keeps `rest` after its block. */
function readsAs(note: string, expected: Record<string, unknown>, rest: string): boolean {
  const parts = split(note);
  if (!parts || parts.rest !== rest) return false;
  try {
    return isDeepStrictEqual(readYaml(parts.yaml), expected);
  } catch {
    return false;
  }
}
