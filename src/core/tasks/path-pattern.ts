/**
 * `path_pattern` of an mdbase task type (tasknotes-spec §5.3.5, §12): a collection-relative path
 * template such as `tasks/{year}/{titleKebab}` whose `{var}` / `{{var}}` placeholders come from
 * the new task's frontmatter and the creation time. Unlike filename templates, a placeholder
 * without a value is an error — a task must never land in `tasks//x.md` or a literal `{due}`.
 */
import { BIDI_CONTROLS } from './filename.js';
import type { RoleMapping } from './role-mapping.js';

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * Characters unsafe in one path segment (and bidirectional controls, filename.ts) removed;
 * separators inside a value become `-`.
 */
export function sanitizePathSegment(value: string): string {
  return (
    value
      .trim()
      // eslint-disable-next-line no-control-regex
      .replace(/[<>:"|?*\u0000-\u001f]/g, '')
      .replace(BIDI_CONTROLS, '')
      .replace(/[\\/]+/g, '-')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

function readString(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function readList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(readString).filter((v): v is string => v !== undefined);
  const single = readString(value);
  return single === undefined ? [] : [single];
}

const words = (text: string): string[] => text.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
const capitalize = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();

/** ISO 8601 week number of a local date. */
function isoWeek(date: Date): number {
  const day = new Date(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  return Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
}

/** Every placeholder value for a new task, from its (field-keyed) frontmatter and local time. */
export function pathPatternValues(
  frontmatter: Record<string, unknown>,
  mapping: RoleMapping,
  now: Date,
): Record<string, string> {
  const field = (role: keyof RoleMapping['roleToField']): unknown => frontmatter[mapping.roleToField[role]];
  const rawTitle = readString(field('title')) ?? 'task';
  const titleWords = words(rawTitle);
  const priority = sanitizePathSegment(readString(field('priority')) ?? 'normal');
  const status = sanitizePathSegment(readString(field('status')) ?? 'open');
  const due = readString(field('due')) ?? '';
  const scheduled = readString(field('scheduled')) ?? '';
  const joinList = (role: 'contexts' | 'projects' | 'tags'): string =>
    readList(field(role)).map(sanitizePathSegment).join('-');
  const [y, mo, d] = [now.getFullYear(), now.getMonth() + 1, now.getDate()];
  const clock = `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  const stamp = `${y}${pad(mo)}${pad(d)}${clock}`;
  const values: Record<string, string> = {
    title: sanitizePathSegment(rawTitle),
    titleKebab: titleWords.map((w) => w.toLowerCase()).join('-'),
    titleSnake: titleWords.map((w) => w.toLowerCase()).join('_'),
    titleCamel: titleWords.map((w, i) => (i === 0 ? w.toLowerCase() : capitalize(w))).join(''),
    titlePascal: titleWords.map(capitalize).join(''),
    titleUpper: sanitizePathSegment(rawTitle.toUpperCase()),
    titleLower: sanitizePathSegment(rawTitle.toLowerCase()),
    priority,
    priorityShort: priority.slice(0, 3).toLowerCase(),
    status,
    statusShort: status.slice(0, 3).toLowerCase(),
    due,
    dueDate: due,
    scheduled,
    scheduledDate: scheduled,
    contexts: joinList('contexts'),
    projects: joinList('projects'),
    tags: joinList('tags'),
    timeEstimate: readString(field('timeEstimate')) ?? '',
    year: String(y),
    month: pad(mo),
    monthName: now.toLocaleString('en-US', { month: 'long' }),
    monthNameShort: now.toLocaleString('en-US', { month: 'short' }),
    day: pad(d),
    date: `${y}-${pad(mo)}-${pad(d)}`,
    shortDate: `${y}${pad(mo)}${pad(d)}`,
    time: clock,
    timestamp: stamp,
    zettel: stamp,
    week: pad(isoWeek(now)),
  };
  // Any other string frontmatter field can be used by its own name.
  for (const [key, value] of Object.entries(frontmatter)) {
    if (values[key] === undefined && typeof value === 'string') values[key] = sanitizePathSegment(value);
  }
  return values;
}

export type RenderedPath = { path: string } | { missing: string[] };

/**
 * Renders a pattern; the result is a normalized relative path ending in `.md`, or the sorted
 * names of the placeholders that had no value. A render that climbs out (`..`) or is empty
 * counts as unresolvable too.
 */
export function renderPathPattern(pattern: string, values: Readonly<Record<string, string>>): RenderedPath {
  const missing = new Set<string>();
  const rendered = pattern.replace(
    /\{\{(\w+)\}\}|\{(\w+)\}/g,
    (_m, a: string | undefined, b: string | undefined) => {
      const key = (a ?? b) as string;
      const value = values[key];
      if (value === undefined || value.trim() === '') missing.add(key);
      return value ?? '';
    },
  );
  if (missing.size > 0) return { missing: [...missing].sort() };
  const segments = rendered
    .replace(/\\/g, '/')
    .split('/')
    .map((s) => s.trim())
    .filter((s) => s !== '' && s !== '.');
  if (segments.length === 0 || segments.includes('..') || rendered.includes('\0')) return { missing: [] };
  const joined = segments.join('/');
  return { path: joined.endsWith('.md') ? joined : `${joined}.md` };
}
