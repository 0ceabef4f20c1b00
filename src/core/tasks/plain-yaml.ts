/**
 * A reader for the plain block-YAML that nearly every frontmatter block is written in: a mapping
 * of `key: scalar` lines, block sequences of scalars (`- item`) and sequences of flat mappings
 * (`timeEntries`). It earns its lines at start-up: on the scale bench (`npm run bench -- scale`,
 * docs/performance.md) one cold pass over the frontmatter of 100,000 generated notes takes about
 * 0.6x the CPU time of what the server does without it (js-yaml, then a structured clone so the
 * values do not keep note texts alive) on Node 20 and on Node 24: about 0.6 s of a first start.
 *
 * It is a fast path, not a YAML parser: anything outside that subset — flow collections, block
 * scalars, anchors, tags, escapes, multi-line scalars, numbers other than plain decimals, tabs,
 * CR line endings — returns `undefined`, and the caller parses the block with js-yaml instead.
 * Whatever it does return is exactly what js-yaml returns with the read schema of note-format.ts
 * (test/core/tasks/plain-yaml.test.ts compares the two on typical frontmatter and on a corpus of
 * generated edge cases). Its strings are detached copies: the index never holds note texts.
 */

import { detachString } from '../detach-string.js';

type Mapping = Record<string, unknown>;

/** YAML 1.2 core integers as note-format.ts reads them (no `_`, no binary). */
const DECIMAL_INT = /^[-+]?[0-9]+$/;
const OTHER_INT = /^(?:0o[0-7]+|0x[0-9a-fA-F]+)$/;
const SIMPLE_FLOAT = /^[-+]?[0-9]+\.[0-9]+$/;
/** Everything js-yaml's core float type accepts, and a little more: such scalars are left to it. */
const FLOAT_LIKE =
  /^(?:[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|[-+]?\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
/** First characters that make a plain scalar something else (or need rules this reader skips). */
const INDICATORS = new Set([...'[]{}&*!|>%@`,?:#"\'-'].map((c) => c.charCodeAt(0)));

/** Characters YAML does not allow in a document (js-yaml rejects them). */
const NON_PRINTABLE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFEFF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;

const PRINTABLE_ASCII = /^[\x20-\x7e\n]*$/;

/** The core schema's null and boolean words. */
const WORDS = new Map<string, null | boolean>([
  ['~', null],
  ['null', null],
  ['Null', null],
  ['NULL', null],
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);

/** Sentinel for "outside the subset": the caller falls back to the full parser. */
const UNSUPPORTED = Symbol('unsupported');
type Scalar = string | number | boolean | null;

/** Reads a block; `undefined` means "not in the subset, use a full YAML parser". */
export function readPlainYaml(yaml: string): Mapping | undefined {
  // Printable ASCII and newlines only (the usual case) needs no closer look.
  if (
    !PRINTABLE_ASCII.test(yaml) &&
    (yaml.includes('\t') || yaml.includes('\r') || NON_PRINTABLE.test(yaml))
  ) {
    return undefined;
  }
  const r = new Lines(yaml);
  const result: Mapping = {};
  let keys = 0;
  while (!r.done) {
    if (r.blank()) {
      r.next();
      continue;
    }
    const valueStart = matchKey(yaml, r.start, r.end);
    if (valueStart < 0) return undefined;
    const key = yaml.slice(r.start, keyEnd);
    if (!isStringKey(key)) return undefined;
    const lineEnd = r.end;
    r.next();
    keys++;
    if (!isBlank(yaml, valueStart, lineEnd)) {
      const value = scalar(r, valueStart, lineEnd);
      if (value === UNSUPPORTED) return undefined;
      result[key] = value;
      // A more indented line after a scalar would continue it (a multi-line plain scalar).
      if (!r.done && !r.blank() && r.indent() > 0) return undefined;
      continue;
    }
    // `key:` alone: null, or a block sequence on the following lines.
    while (!r.done && r.blank()) r.next();
    if (r.done) {
      result[key] = null;
      continue;
    }
    const indent = r.indent();
    if (!r.dashAt(indent)) {
      if (indent > 0) return undefined; // a nested mapping or a continuation line
      result[key] = null;
      continue;
    }
    const items = sequence(r, indent);
    if (items === undefined) return undefined;
    result[key] = items;
  }
  // An empty block is null to YAML, not an empty mapping.
  return keys > 0 ? result : undefined;
}

/**
 * A cursor over the lines of a block, as `split('\n')` would cut them, by index: no string per
 * line (this runs for every frontmatter line of the vault at start).
 */
class Lines {
  /** Current line: from `start` to `end` (exclusive, the `\n` or the end of the text). */
  start = 0;
  end: number;

  constructor(readonly text: string) {
    this.end = this.endOf(0);
  }

  get done(): boolean {
    return this.start > this.text.length;
  }

  next(): void {
    this.start = this.end + 1;
    if (!this.done) this.end = this.endOf(this.start);
  }

  indent(): number {
    let k = this.start;
    while (k < this.end && this.text.charCodeAt(k) === 32) k++;
    return k - this.start;
  }

  /** Where the next ` #` is at or after `from` (-1: none); see commentAt. */
  private comment = -1;
  private commentSearchedFrom = -1;

  /**
   * The first ` #` at or after `from` (-1: none), searched once for all the lines it skips: a
   * search per line ran to the end of the text on every line without one, quadratic in the lines
   * (30,000 `key: value` lines took 3.4 s).
   */
  commentAt(from: number): number {
    const known =
      this.commentSearchedFrom >= 0 &&
      from >= this.commentSearchedFrom &&
      (this.comment < 0 || from <= this.comment);
    if (!known) {
      this.commentSearchedFrom = from;
      this.comment = this.text.indexOf(' #', from);
    }
    return this.comment;
  }

  blank(): boolean {
    return isBlank(this.text, this.start, this.end);
  }

  /** A `-` at column `column` followed by a space or the end of the line. */
  dashAt(column: number): boolean {
    const p = this.start + column;
    return (
      p < this.end &&
      this.text.charCodeAt(p) === 45 &&
      (p + 1 === this.end || this.text.charCodeAt(p + 1) === 32)
    );
  }

  private endOf(from: number): number {
    const nl = this.text.indexOf('\n', from);
    return nl < 0 ? this.text.length : nl;
  }
}

/** Keys that YAML reads as the same string (not `null`, `True`, …) and that are safe object keys. */
function isStringKey(key: string): boolean {
  // A key starts with a letter or `_` (matchKey), so only the null and boolean words read as
  // something else.
  return key !== '__proto__' && !WORDS.has(key);
}

/** Items of a block sequence whose dashes stand at column `indent`; leaves `r` after it. */
function sequence(r: Lines, indent: number): unknown[] | undefined {
  const text = r.text;
  const items: unknown[] = [];
  while (!r.done) {
    if (r.blank()) {
      r.next();
      continue;
    }
    const at = r.indent();
    if (at < indent) break;
    if (!r.dashAt(indent)) {
      // At column 0 the sequence ends at the next key; deeper, only dashes may follow.
      if (at === 0) break;
      return undefined;
    }
    const contentStart = r.start + indent + 2;
    const lineEnd = r.end;
    r.next();
    // `-` alone: a nested block or null; left to js-yaml.
    if (contentStart >= lineEnd || isBlank(text, contentStart, lineEnd)) return undefined;
    if (matchKey(text, contentStart, lineEnd) >= 0) {
      // `- key: value` starts a flat mapping whose other keys line up with the first one.
      const item = mappingItem(r, indent + 2, contentStart, lineEnd);
      if (item === undefined) return undefined;
      items.push(item);
      continue;
    }
    const value = scalar(r, contentStart, lineEnd);
    if (value === UNSUPPORTED) return undefined;
    items.push(value);
    if (!r.done && !r.blank() && r.indent() > indent) return undefined;
  }
  // An exact-size copy: a grown array keeps spare slots (17 for a one-item list) for good.
  return items.slice();
}

/** A mapping inside a sequence item (its first line given): scalar values only, keys at `column`. */
function mappingItem(r: Lines, column: number, firstStart: number, firstEnd: number): Mapping | undefined {
  const text = r.text;
  const value: Mapping = {};
  let start = firstStart;
  let end = firstEnd;
  for (;;) {
    const valueStart = matchKey(text, start, end);
    if (valueStart < 0) return undefined;
    const key = text.slice(start, keyEnd);
    if (!isStringKey(key)) return undefined;
    if (isBlank(text, valueStart, end)) return undefined; // a nested block inside the item
    const v = scalar(r, valueStart, end);
    if (v === UNSUPPORTED) return undefined;
    value[key] = v;
    while (!r.done && r.blank()) r.next();
    if (r.done) return value;
    const at = r.indent();
    if (at < column) return value;
    if (at > column) return undefined;
    start = r.start + column;
    end = r.end;
    r.next();
  }
}

/** Set by matchKey: where the matched key's text ends. */
let keyEnd = 0;

/**
 * Matches a plain key at `start` — letters, digits, `_`, `.`, `-` and inner spaces, starting with
 * a letter or `_` — followed by optional spaces, `:` and a space or the end of the line. Returns
 * where the value starts, or -1. A character loop rather than a regular expression: a match array
 * per frontmatter line was a measurable share of a start's garbage.
 */
function matchKey(text: string, start: number, end: number): number {
  if (start >= end) return -1;
  const first = text.charCodeAt(start);
  if (!(isLetter(first) || first === 95)) return -1;
  let i = start + 1;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (isKeyChar(c)) {
      i++;
      continue;
    }
    if (c !== 32 && c !== 58) return -1;
    let j = i;
    while (j < end && text.charCodeAt(j) === 32) j++;
    if (j > i && j < end && isKeyChar(text.charCodeAt(j))) {
      i = j; // spaces inside the key
      continue;
    }
    if (j >= end || text.charCodeAt(j) !== 58) return -1;
    keyEnd = i;
    if (j + 1 === end) return end;
    return text.charCodeAt(j + 1) === 32 ? j + 2 : -1;
  }
  return -1;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** `[A-Za-z0-9_.-]` */
function isKeyChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === 95 || c === 46 || c === 45;
}

/** True when `text` from `start` to `end` holds only spaces, or spaces and a comment. */
function isBlank(text: string, start: number, end: number): boolean {
  let k = start;
  while (k < end && text.charCodeAt(k) === 32) k++;
  return k === end || text.charCodeAt(k) === 35; // '#'
}

/** One inline scalar (from after `key: ` or `- ` to the end of the line), or UNSUPPORTED. */
function scalar(r: Lines, start: number, end: number): Scalar | typeof UNSUPPORTED {
  const text = r.text;
  let from = start;
  while (from < end && text.charCodeAt(from) === 32) from++;
  const c = text.charCodeAt(from);
  if (c === 34 || c === 39) return quoted(text, from, end, c);
  // A dash starts a plain scalar only when a non-space follows (`-PT1H`, `-5`).
  if (INDICATORS.has(c) && !(c === 45 && from + 1 < end && text.charCodeAt(from + 1) !== 32))
    return UNSUPPORTED;
  // ` #` starts a comment; trailing spaces are not part of the value (YAML: spaces, not all
  // Unicode white space); `: ` would make this a mapping.
  let to = r.commentAt(from);
  if (to < 0 || to >= end) to = end;
  while (to > from && text.charCodeAt(to - 1) === 32) to--;
  const plain = text.slice(from, to);
  if (plain.includes(': ') || plain.charCodeAt(plain.length - 1) === 58) return UNSUPPORTED;
  return resolvePlain(plain);
}

/** Core-schema resolution of a plain scalar, for the cases this reader is sure about. */
function resolvePlain(s: string): Scalar | typeof UNSUPPORTED {
  const word = WORDS.get(s);
  if (word !== undefined) return word;
  const c = s.charCodeAt(0);
  // Only scalars starting with a digit, a sign or a dot can be numbers.
  if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) {
    // Dates and date-times (`2025-01-15…`), the most common such scalars: four digits and a dash
    // are never the start of a number, so no pattern needs to run.
    if (isDigit(c) && isDigit(s.charCodeAt(1)) && isDigit(s.charCodeAt(2)) && isDigit(s.charCodeAt(3))) {
      if (s.charCodeAt(4) === 45) return intern(s);
    }
    if (DECIMAL_INT.test(s) || SIMPLE_FLOAT.test(s)) return Number(s);
    if (OTHER_INT.test(s) || FLOAT_LIKE.test(s)) return UNSUPPORTED;
  }
  return intern(s);
}

/** A quoted scalar without escapes and with nothing but spaces and a comment after it. */
function quoted(text: string, open: number, end: number, quote: number): string | typeof UNSUPPORTED {
  let out = '';
  let from = open + 1;
  for (;;) {
    const close = text.indexOf(quote === 34 ? '"' : "'", from);
    if (close < 0 || close >= end) return UNSUPPORTED; // continues on the next line
    if (quote === 39 && close + 1 < end && text.charCodeAt(close + 1) === 39) {
      out += text.slice(from, close + 1); // '' is a quote
      from = close + 2;
      continue;
    }
    out += text.slice(from, close);
    let after = close + 1;
    while (after < end && text.charCodeAt(after) === 32) after++;
    if (after < end && !(after > close + 1 && text.charCodeAt(after) === 35)) return UNSUPPORTED;
    if (quote === 34 && out.includes('\\')) return UNSUPPORTED;
    return intern(out);
  }
}

/** Interned scalars, bounded: cleared when full (only sharing is lost, never a value). */
const interned = new Map<string, string>();
const INTERN_MAX_LENGTH = 16;
const INTERN_MAX_ENTRIES = 50_000;

/**
 * One string per distinct scalar: statuses, priorities, tags, projects and dates repeat across
 * thousands of notes, and the index would otherwise hold a copy per note (and, through V8's
 * substrings, the note text it was cut from; see detach-string.ts).
 */
function intern(s: string): string {
  if (s.length > INTERN_MAX_LENGTH) return detachString(s);
  let shared = interned.get(s);
  if (shared === undefined) {
    if (interned.size >= INTERN_MAX_ENTRIES) interned.clear();
    shared = detachString(s);
    interned.set(shared, shared);
  }
  return shared;
}
