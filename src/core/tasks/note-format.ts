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
import { Document, isMap, isScalar, parseDocument, type Pair } from 'yaml';
import { detachString } from '../detach-string.js';
import { editFrontmatterText, YAML_OUT, type FrontmatterChanges } from './frontmatter-edit.js';
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

/** Aliases can expand exponentially; such (rare) frontmatter goes through `yaml`, which caps them. */
const MAY_HAVE_ALIASES = /&\S[\s\S]*\*\S/;

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

const keyOf = (pair: Pair): unknown => (isScalar(pair.key) ? pair.key.value : pair.key);

/** How many times the frontmatter mapping has `key`. */
function countKey(doc: Document, key: string): number {
  return isMap(doc.contents) ? doc.contents.items.filter((pair) => keyOf(pair) === key).length : 0;
}

/**
 * Deletes a key; a comment written above it moves to the next key (or the end of the document),
 * so removing `title:` does not take a file's leading comment with it.
 */
function deleteKeepingComments(doc: Document, key: string): void {
  const map = doc.contents;
  if (!isMap(map)) return;
  const index = map.items.findIndex((pair) => keyOf(pair) === key);
  if (index < 0) return;
  const pair = map.items[index]!;
  const comment = isScalar(pair.key) ? pair.key.commentBefore : undefined;
  map.items.splice(index, 1);
  if (!comment) return;
  const next = map.items[index];
  if (next && isScalar(next.key)) {
    next.key.commentBefore = next.key.commentBefore ? `${comment}\n${next.key.commentBefore}` : comment;
  } else if (index === 0) {
    doc.commentBefore = doc.commentBefore ? `${doc.commentBefore}\n${comment}` : comment;
  } else {
    doc.comment = doc.comment ? `${doc.comment}\n${comment}` : comment;
  }
}

/**
 * The block's YAML with `changes` made, ending in a line break: edited in place, so untouched keys
 * keep their exact text (frontmatter-edit.ts), when the edit reads as the changed values; else the
 * parsed Document re-printed with the changes.
 */
function changedYaml(yaml: string | undefined, changes: FrontmatterChanges, eol: string): string {
  const doc = yaml === undefined ? new Document({}) : parseYaml(yaml);
  if (yaml !== undefined) {
    const edited = editFrontmatterText(yaml, doc, changes, eol);
    if (edited !== null && readsAsChanged(yaml, edited, changes)) return edited;
  }
  if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as typeof doc.contents;
  for (const [key, value] of changes) {
    // A key written twice reads as its last value (parseNote): the shadowed earlier ones go, or
    // the change would land on the first and never be read (nor would a deletion).
    while (countKey(doc, key) > 1) deleteKeepingComments(doc, key);
    if (value === undefined) {
      deleteKeepingComments(doc, key);
      continue;
    }
    const existing: unknown = doc.get(key, true);
    // Reuse a scalar node so its trailing comment survives a value change.
    if (isScalar(existing) && value !== null && typeof value !== 'object') existing.value = value;
    else doc.set(key, doc.createNode(value));
  }
  const printed = doc.toString(YAML_OUT);
  return eol === '\n' ? printed : printed.replace(/\n/g, eol);
}

/** Whether `after` reads as `before` with `changes` made (the in-place edit's check). */
function readsAsChanged(before: string, after: string, changes: FrontmatterChanges): boolean {
  try {
    const expected = readYaml(before);
    if (!expected || typeof expected !== 'object' || Array.isArray(expected)) return false;
    for (const [key, value] of changes) {
      if (value === undefined) delete (expected as Record<string, unknown>)[key];
      // Defined, not assigned: a `__proto__` key is data here.
      else
        Object.defineProperty(expected, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return isDeepStrictEqual(readYaml(after), expected);
  } catch {
    return false;
  }
}

/**
 * Applies key changes to a note's frontmatter, preserving untouched keys, their order and
 * comments. `details` replaces the body when given (rebuilt as `\n<details>\n`); otherwise the
 * body is kept exactly. The note keeps its byte order mark, and a note with CRLF line endings
 * (its first line's) gets CRLF in what is written, so a Windows editor's note never mixes both.
 */
export function updateNote(text: string, changes: FrontmatterChanges, details?: string): string {
  const bom = text.startsWith(BOM) ? BOM : '';
  const note = bom === '' ? text : text.slice(bom.length);
  // What this writes (the block, a new body) takes the note's line ending; a kept body stays as is.
  const eol = /^[^\n]*\r\n/.test(note) ? '\r\n' : '\n';
  const lines = (generated: string): string => (eol === '\n' ? generated : generated.replace(/\n/g, eol));
  const parts = split(note);
  const block = `${lines('---\n')}${changedYaml(parts?.yaml, changes, eol)}${lines('---\n')}`;
  let rest: string;
  if (details !== undefined) {
    const body = details.replace(/\r\n/g, '\n').replace(/\s+$/, '');
    rest = lines(body.trim() === '' ? '\n' : `\n${body}\n`);
  } else {
    rest = parts ? parts.rest : note === '' ? lines('\n') : `${eol}${note}`;
  }
  return `${bom}${block}${rest}`;
}
