/**
 * Is a note a task under the spec's `task_detection` section (tasknotes-spec §9.7)? Methods:
 * `tag` (the task tag in frontmatter `tags` or as a `#tag` in the body outside code) and
 * `property` (a frontmatter property, optionally with a required value). Several methods combine
 * with `or` (default) or `and`; notes under an excluded folder are never tasks.
 */
import { normalizeTag } from '../tasks/field-mapping.js';

export interface TaskDetection {
  method?: string;
  methods?: readonly string[];
  combine?: 'and' | 'or';
  tag?: string;
  property_name?: string;
  property_value?: string;
  /** A list, or the plugin's comma-separated string. */
  excluded_folders?: readonly string[] | string;
}

export interface NoteToDetect {
  filePath: string;
  frontmatter: Record<string, unknown>;
  body: string;
}

const tagKey = (tag: string): string => normalizeTag(tag).toLowerCase();

/** A tag matches the task tag itself or a nested tag under it (`task/errand`). */
const matchesTag = (candidate: string, wanted: string): boolean =>
  candidate === wanted || candidate.startsWith(`${wanted}/`);

function cleanFolder(folder: string): string {
  return folder.replace(/\\/g, '/').replace(/^\/+/, '').replace(/\/+$/, '').trim();
}

function excludedFolders(value: TaskDetection['excluded_folders']): string[] {
  const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [];
  return list.map(cleanFolder).filter((f) => f !== '');
}

function isExcluded(filePath: string, folders: readonly string[]): boolean {
  const normalized = filePath.replace(/\\/g, '/').replace(/^\/+/, '');
  return folders.some((folder) => normalized === folder || normalized.startsWith(`${folder}/`));
}

/** Inline `#tags` of a Markdown body, ignoring fenced code blocks and inline code spans. */
function bodyTags(body: string): string[] {
  const prose = body.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`]*`/g, ' ');
  return [...prose.matchAll(/(?:^|[^\w#])#([A-Za-z0-9][\w/-]*)/g)].map((m) => (m[1] as string).toLowerCase());
}

function hasTaskTag(note: NoteToDetect, tag: string): boolean {
  const wanted = tagKey(tag);
  if (wanted === '') return false;
  const raw = note.frontmatter.tags;
  const fmTags = (Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [])
    .filter((t): t is string => typeof t === 'string')
    .map(tagKey);
  return [...fmTags, ...bodyTags(note.body)].some((t) => matchesTag(t, wanted));
}

function hasTaskProperty(note: NoteToDetect, name: string, value: string): boolean {
  const key = name.trim();
  if (key === '' || !Object.hasOwn(note.frontmatter, key)) return false;
  return value === '' || String(note.frontmatter[key]) === value;
}

export function isTaskNote(note: NoteToDetect, detection: TaskDetection): boolean {
  if (note.filePath && isExcluded(note.filePath, excludedFolders(detection.excluded_folders))) return false;
  const declared = (detection.methods ?? (detection.method ? [detection.method] : []))
    .map((m) => m.trim().toLowerCase())
    .filter((m) => m !== '');
  const methods = declared.length > 0 ? declared : detection.tag !== undefined ? ['tag'] : [];
  const results = methods.flatMap((method) => {
    if (method === 'tag') return [hasTaskTag(note, detection.tag ?? 'task')];
    if (method === 'property') {
      return [hasTaskProperty(note, detection.property_name ?? '', detection.property_value ?? '')];
    }
    return [];
  });
  if (results.length === 0) return false;
  return detection.combine === 'and' ? results.every(Boolean) : results.some(Boolean);
}
