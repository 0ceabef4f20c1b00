/**
 * A reader for the plain block-YAML that nearly every frontmatter block is written in: a mapping
 * of `key: scalar` lines, block sequences of scalars (`- item`) and sequences of flat mappings
 * (`timeEntries`). On the 10,000-note bench vault it reads frontmatter several times faster than
 * js-yaml, which is most of the time a cold start spends parsing.
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

/** A plain key: letters, digits, `_` and inner `-`, `.` or spaces; never `__proto__`. */
const KEY = /^([A-Za-z_][\w.-]*(?: +[\w.-]+)*)[ ]*:(?: |$)/;
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

/** Sentinel for "outside the subset": the caller falls back to the full parser. */
const UNSUPPORTED = Symbol('unsupported');
type Scalar = string | number | boolean | null;

/** Reads a block; `undefined` means "not in the subset, use a full YAML parser". */
export function readPlainYaml(yaml: string): Mapping | undefined {
  if (yaml.includes('\t') || yaml.includes('\r') || NON_PRINTABLE.test(yaml)) return undefined;
  const lines = yaml.split('\n');
  const result: Mapping = {};
  let i = 0;
  const n = lines.length;
  while (i < n) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const m = KEY.exec(line);
    if (!m || !isStringKey(m[1]!)) return undefined;
    const key = m[1]!;
    const rest = line.slice(m[0].length);
    i++;
    if (!isBlank(rest)) {
      const value = scalar(rest);
      if (value === UNSUPPORTED) return undefined;
      result[key] = value;
      // A more indented line after a scalar would continue it (a multi-line plain scalar).
      if (i < n && !isBlank(lines[i]!) && lines[i]![0] === ' ') return undefined;
      continue;
    }
    // `key:` alone: null, or a block sequence on the following lines.
    while (i < n && isBlank(lines[i]!)) i++;
    if (i >= n) {
      result[key] = null;
      continue;
    }
    const first = lines[i]!;
    const indent = indentOf(first);
    if (!isDash(first, indent)) {
      if (indent > 0) return undefined; // a nested mapping or a continuation line
      result[key] = null;
      continue;
    }
    const seq = sequence(lines, i, indent);
    if (seq === undefined) return undefined;
    result[key] = seq.items;
    i = seq.next;
  }
  // An empty block is null to YAML, not an empty mapping.
  return i > 0 && Object.keys(result).length > 0 ? result : undefined;
}

/** Keys that YAML reads as the same string (not `null`, `True`, …) and that are safe object keys. */
function isStringKey(key: string): boolean {
  return key !== '__proto__' && typeof resolvePlain(key) === 'string';
}

/** Items of a block sequence whose dashes stand at column `indent`, and the line after it. */
function sequence(
  lines: string[],
  start: number,
  indent: number,
): { items: unknown[]; next: number } | undefined {
  const items: unknown[] = [];
  let i = start;
  const n = lines.length;
  while (i < n) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const at = indentOf(line);
    if (at < indent) break;
    if (!isDash(line, indent)) {
      // At column 0 the sequence ends at the next key; deeper, only dashes may follow.
      if (at === 0) break;
      return undefined;
    }
    const content = line.slice(indent + 2);
    i++;
    if (isBlank(content)) return undefined; // `-` alone: a nested block or null; left to js-yaml
    const m = KEY.exec(content);
    if (m) {
      // `- key: value` starts a flat mapping whose other keys line up with the first one.
      const item = mappingItem(lines, i, indent + 2, m, content);
      if (item === undefined) return undefined;
      items.push(item.value);
      i = item.next;
      continue;
    }
    const value = scalar(content);
    if (value === UNSUPPORTED) return undefined;
    items.push(value);
    if (i < n && !isBlank(lines[i]!) && indentOf(lines[i]!) > indent) return undefined;
  }
  // An exact-size copy: a grown array keeps spare slots (17 for a one-item list) for good.
  return { items: items.slice(), next: i };
}

/** A mapping inside a sequence item: scalar values only, keys at column `column`. */
function mappingItem(
  lines: string[],
  start: number,
  column: number,
  firstKey: RegExpExecArray,
  firstLine: string,
): { value: Mapping; next: number } | undefined {
  const value: Mapping = {};
  let m: RegExpExecArray | null = firstKey;
  let content = firstLine;
  let i = start;
  for (;;) {
    if (!isStringKey(m[1]!)) return undefined;
    const rest = content.slice(m[0].length);
    if (isBlank(rest)) return undefined; // a nested block inside the item
    const v = scalar(rest);
    if (v === UNSUPPORTED) return undefined;
    value[m[1]!] = v;
    while (i < lines.length && isBlank(lines[i]!)) i++;
    if (i >= lines.length) return { value, next: i };
    const line = lines[i]!;
    const at = indentOf(line);
    if (at < column) return { value, next: i };
    if (at > column) return undefined;
    content = line.slice(column);
    m = KEY.exec(content);
    if (!m) return undefined;
    i++;
  }
}

/** One inline scalar (the text after `key: ` or `- `), or UNSUPPORTED. */
function scalar(text: string): Scalar | typeof UNSUPPORTED {
  const s = text.charCodeAt(0) === 32 ? text.trimStart() : text;
  const c = s[0];
  if (c === '"' || c === "'") return quoted(s, c);
  // A dash starts a plain scalar only when a non-space follows (`-PT1H`, `-5`).
  if (INDICATORS.has(s.charCodeAt(0)) && !(c === '-' && s.length > 1 && s[1] !== ' ')) return UNSUPPORTED;
  // ` #` starts a comment; `: ` would make this a mapping.
  const hash = s.indexOf(' #');
  const plain = (hash >= 0 ? s.slice(0, hash) : s).trimEnd();
  if (plain.includes(': ') || plain.endsWith(':')) return UNSUPPORTED;
  return resolvePlain(plain);
}

/** Core-schema resolution of a plain scalar, for the cases this reader is sure about. */
function resolvePlain(s: string): Scalar | typeof UNSUPPORTED {
  // The null and boolean words are at most five characters long.
  if (s.length <= 5) {
    switch (s) {
      case '~':
      case 'null':
      case 'Null':
      case 'NULL':
        return null;
      case 'true':
      case 'True':
      case 'TRUE':
        return true;
      case 'false':
      case 'False':
      case 'FALSE':
        return false;
    }
  }
  const c = s.charCodeAt(0);
  // Only scalars starting with a digit, a sign or a dot can be numbers.
  if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) {
    if (DECIMAL_INT.test(s) || SIMPLE_FLOAT.test(s)) return Number(s);
    if (OTHER_INT.test(s) || FLOAT_LIKE.test(s)) return UNSUPPORTED;
  }
  return intern(s);
}

/** A quoted scalar without escapes and without anything but a comment after it. */
function quoted(s: string, q: '"' | "'"): string | typeof UNSUPPORTED {
  let out = '';
  let from = 1;
  for (;;) {
    const end = s.indexOf(q, from);
    if (end < 0) return UNSUPPORTED; // continues on the next line
    if (q === "'" && s[end + 1] === "'") {
      out += s.slice(from, end + 1);
      from = end + 2;
      continue;
    }
    out += s.slice(from, end);
    const after = s.slice(end + 1).trimEnd();
    if (after !== '' && !after.startsWith(' #')) return UNSUPPORTED;
    if (q === '"' && out.includes('\\')) return UNSUPPORTED;
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

/** True for an empty, all-space or comment-only line. */
function isBlank(line: string): boolean {
  const at = indentOf(line);
  return at === line.length || line.charCodeAt(at) === 35; // '#'
}

function indentOf(line: string): number {
  let k = 0;
  while (line.charCodeAt(k) === 32) k++;
  return k;
}

function isDash(line: string, indent: number): boolean {
  return line[indent] === '-' && (line.length === indent + 1 || line[indent + 1] === ' ');
}
