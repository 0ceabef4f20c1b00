/**
 * Dependency entries of a task's `blockedBy` list (tasknotes-spec §10.2): `{uid, reltype, gap?}`.
 * Validation answers with the spec's issue code; uids compare by their normalized reference so
 * `[[task-b]]`, `task-b`, `./task-b.md` and `[B](task-b.md)` are the same dependency.
 */
import { isIsoDuration } from '../dates/duration.js';
import { linkTarget, tryParseLink } from '../links/parse.js';
import { isRecord } from '../is-record.js';

export const DEPENDENCY_RELTYPES = [
  'FINISHTOSTART',
  'STARTTOSTART',
  'FINISHTOFINISH',
  'STARTTOFINISH',
] as const;
export type DependencyReltype = (typeof DEPENDENCY_RELTYPES)[number];
export const DEFAULT_RELTYPE: DependencyReltype = 'FINISHTOSTART';

export interface DependencyEntry {
  uid: string;
  reltype: DependencyReltype;
  gap?: string;
}

export type DependencyIssue =
  | 'invalid_dependency_entry'
  | 'invalid_dependency_reltype'
  | 'invalid_dependency_gap'
  | 'duplicate_dependency_uid'
  | 'self_dependency';

export function isReltype(value: unknown): value is DependencyReltype {
  return typeof value === 'string' && (DEPENDENCY_RELTYPES as readonly string[]).includes(value);
}

/**
 * The canonical key of a uid reference: the target without brackets, anchor, alias, leading
 * `./` or `/`, and `.md`. Null when the text starts like a link (`[`) but is not a well-formed
 * one — a broken link must not silently become a plain name.
 */
export function normalizeDependencyUid(uid: string): string | null {
  const text = uid.trim();
  if (text === '') return null;
  let target = text;
  if (text.startsWith('[')) {
    const link = tryParseLink(text);
    if (!link || link.format === 'path') return null;
    target = link.target;
  }
  const key = target
    .replace(/\\/g, '/')
    .replace(/^(?:\.\/)+/, '')
    .replace(/^\/+/, '')
    .replace(/\.md$/i, '');
  return key === '' ? null : key;
}

/** The first problem with one entry, or null when valid. */
export function dependencyEntryIssue(entry: unknown): DependencyIssue | null {
  if (!isRecord(entry) || typeof entry.uid !== 'string' || normalizeDependencyUid(entry.uid) === null) {
    return 'invalid_dependency_entry';
  }
  const reltype = typeof entry.reltype === 'string' ? entry.reltype.trim() : '';
  if (!isReltype(reltype)) return 'invalid_dependency_reltype';
  if (entry.gap !== undefined && !isIsoDuration(entry.gap)) return 'invalid_dependency_gap';
  return null;
}

/** Strict validation of a task's whole list: valid entries, no self-dependency, unique uids. */
export function dependencySetIssue(taskUid: string, entries: readonly unknown[]): DependencyIssue | null {
  const self = normalizeDependencyUid(taskUid);
  const seen = new Set<string>();
  for (const entry of entries) {
    const issue = dependencyEntryIssue(entry);
    if (issue) return issue;
    const key = normalizeDependencyUid((entry as DependencyEntry).uid) as string;
    if (key === self) return 'self_dependency';
    if (seen.has(key)) return 'duplicate_dependency_uid';
    seen.add(key);
  }
  return null;
}

/** A dependency as the read shape shows it: the uid without link syntax, a valid reltype. */
export interface DependencyView {
  uid: string;
  reltype: string;
  gap?: string;
}

/**
 * The entries of a stored `blockedBy` value that name a task, as written: a scalar counts as a
 * one-entry list, a string entry is its uid (the legacy form), an object needs a non-blank `uid`.
 */
export function storedDependencies(raw: unknown): Array<{ uid: string; entry: Record<string, unknown> }> {
  if (raw === undefined || raw === null) return [];
  const out: Array<{ uid: string; entry: Record<string, unknown> }> = [];
  for (const item of Array.isArray(raw) ? raw : [raw]) {
    if (typeof item === 'string') {
      if (item.trim() !== '') out.push({ uid: item, entry: { uid: item } });
    } else if (isRecord(item) && typeof item.uid === 'string' && item.uid.trim() !== '') {
      out.push({ uid: item.uid, entry: item });
    }
  }
  return out;
}

/**
 * The read shape of a stored `blockedBy` value: each usable entry with its uid's link syntax
 * removed (`[[Target|alias]]` → `Target`, `[t](path.md)` → the decoded path), its reltype
 * upper-cased (an unknown or missing one is FINISHTOSTART) and a non-blank gap. Undefined when
 * no entry is usable.
 */
export function dependencyViews(raw: unknown): DependencyView[] | undefined {
  const out = storedDependencies(raw).map(({ uid, entry }) => {
    const reltype = typeof entry.reltype === 'string' ? entry.reltype.trim().toUpperCase() : '';
    const view: DependencyView = {
      uid: linkTarget(uid),
      reltype: isReltype(reltype) ? reltype : DEFAULT_RELTYPE,
    };
    if (typeof entry.gap === 'string' && entry.gap.trim() !== '') view.gap = entry.gap;
    return view;
  });
  return out.length > 0 ? out : undefined;
}
