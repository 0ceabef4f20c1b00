/**
 * Frontmatter changes made as text edits: only the lines of the keys that change are rewritten,
 * every other byte of the block stays as the user wrote it. Re-printing the whole block from the
 * parsed YAML would lose text that reads as the same value: `zip: 02134` would become `2134`,
 * `+4930123` would lose its sign, `True` would become `true`, a plain scalar folded over two lines
 * would be joined and a sequence written at the key's indent would be re-indented.
 *
 * The caller checks the result reads as the changed values and falls back to re-printing the
 * block (frontmatter-reprint.ts) when it does not, or when this returns null for a layout it does
 * not edit.
 */
import { Document, isMap, isScalar, type Pair, type Scalar, type ToStringOptions } from 'yaml';

/** One frontmatter change: set a key (appended at the end when new) or delete it (`undefined`). */
export type FrontmatterChanges = ReadonlyArray<readonly [key: string, value: unknown]>;

/**
 * An untouched flow list keeps its spacing (`[a, b]`, as people and Obsidian write it): the
 * library's default pads it (`[ a, b ]`) whenever any key of the note changes.
 */
export const YAML_OUT: ToStringOptions = {
  lineWidth: 0,
  minContentWidth: 0,
  flowCollectionPadding: false,
};

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * A pair's key as the reader names it: `1:`, `true:` and `~:` are the keys "1", "true" and "null"
 * of the frontmatter object, and a change names them so.
 */
export const keyOf = (pair: Pair): unknown => (isScalar(pair.key) ? String(pair.key.value) : pair.key);

const lineStart = (text: string, at: number): number => text.lastIndexOf('\n', at - 1) + 1;

/** Where the line holding `at` ends, past its newline (or the end of the text). */
function pastLineEnd(text: string, at: number): number {
  if (at > 0 && text[at - 1] === '\n') return at;
  const newline = text.indexOf('\n', at);
  return newline < 0 ? text.length : newline + 1;
}

/**
 * Gives a scalar node a new value, keeping its style. An explicit tag names the old value's type
 * (`!!int 1`) and would misread a value of another: it goes when the type changes.
 */
export function setScalarValue(scalar: Scalar, value: unknown): Scalar {
  if (typeof scalar.value !== typeof value) scalar.tag = undefined;
  scalar.value = value;
  return scalar;
}

/**
 * `key: value` as the library prints it, without the final newline. A changed scalar keeps its
 * node's style (a quoted title stays quoted) as the re-printing path does.
 */
function printPair(key: string, value: unknown, before: unknown): string {
  const doc = new Document(new Map());
  let node: unknown = value;
  if (isScalar(before) && value !== null && typeof value !== 'object') {
    const scalar = setScalarValue(before.clone() as Scalar, value);
    scalar.comment = undefined;
    scalar.commentBefore = undefined;
    scalar.anchor = undefined;
    node = scalar;
  }
  (doc.contents as { items: Pair[] }).items.push(doc.createPair(key, node));
  return doc.toString(YAML_OUT).replace(/\n$/, '');
}

/**
 * The block's text with `changes` made in place, or null when its layout is one this does not
 * edit: a flow mapping, complex keys, keys not at the start of their line, or a key changed twice.
 * Text this writes uses `eol`; kept text keeps its own line endings.
 */
export function editFrontmatterText(
  yaml: string,
  doc: Document,
  changes: FrontmatterChanges,
  eol: string,
): string | null {
  const map = doc.contents;
  // Positions below are the parser's, in `yaml`. The note's split took the line break before the
  // closing `---`; it is given back, so a blank line there stays.
  const text = `${yaml}${eol}`;
  if (!isMap(map) || map.flow || !map.range) return null;
  if (new Set(changes.map(([key]) => key)).size !== changes.length) return null;
  for (const pair of map.items) {
    const start = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
    if (start === undefined || lineStart(text, start) !== start) return null;
  }
  const edits: Edit[] = [];
  const added: string[] = [];
  for (const [key, value] of changes) {
    const pairs = map.items.filter((pair) => keyOf(pair) === key);
    // A key written twice reads as its last value: the shadowed ones go, or a change would land
    // on the first and never be read (nor would a deletion).
    const kept = value === undefined ? undefined : pairs.pop();
    for (const pair of pairs) {
      const start = (pair.key as Scalar).range![0];
      const end = (pair.value as Scalar | null)?.range?.[2] ?? (pair.key as Scalar).range![2];
      edits.push({ start, end: pastLineEnd(text, end), text: '' });
    }
    if (value === undefined) continue;
    if (!kept) {
      added.push(printPair(key, value, undefined));
      continue;
    }
    const start = (kept.key as Scalar).range![0];
    const end = (kept.value as Scalar | null)?.range?.[1] ?? (kept.key as Scalar).range![1];
    // A block value's range takes its last newline; the printed pair must give it back.
    const newline = end > start && text[end - 1] === '\n' ? '\n' : '';
    edits.push({ start, end, text: `${printPair(key, value, kept.value)}${newline}` });
  }
  if (added.length > 0) {
    const at = pastLineEnd(text, map.range[2]);
    edits.push({ start: at, end: at, text: `${added.join('\n')}\n` });
  }
  edits.sort((a, b) => b.start - a.start);
  let out = text;
  for (const edit of edits) {
    const written = eol === '\n' ? edit.text : edit.text.replace(/\n/g, eol);
    out = `${out.slice(0, edit.start)}${written}${out.slice(edit.end)}`;
  }
  return out;
}
