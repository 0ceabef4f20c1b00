/**
 * Is a note a task under the spec's `task_detection` section (tasknotes-spec §9.7)? Methods:
 * `tag` (the task tag in frontmatter `tags`, or a `#tag` in the body outside code) and `property`
 * (a frontmatter property with a required value, or present at all when no value is given; a list
 * value matches when one element does). Several methods combine with `or` (default) or `and`;
 * notes under an excluded folder are never tasks.
 *
 * A detection is compiled once (`taskDetector`) and then asked per note: the server asks for every
 * note of the vault at start. The server's detection comes from the TaskNotes settings
 * (`detectionOf`), with body tags off: the TaskNotes plugin identifies tasks by frontmatter
 * alone, and a vault's notes that merely mention `#task` in their text are not task notes there
 * (see docs/task-model.md).
 */
import { normalizeTag } from '../tasks/field-mapping.js';
import type { TaskNotesSettings } from '../tasks/tasknotes-settings.js';
import { mapPluginSettings } from './plugin-settings.js';

export interface TaskDetection {
  method?: string;
  methods?: readonly string[];
  combine?: 'and' | 'or';
  tag?: string;
  property_name?: string;
  property_value?: string;
  /** A list, or the plugin's comma-separated string. */
  excluded_folders?: readonly string[] | string;
  /** Whether a `#tag` in the body counts for the tag method (the spec's default: yes). */
  body_tags?: boolean;
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
  return folder.trim().replace(/\\/g, '/').replace(/^\/+/, '').replace(/\/+$/, '');
}

/** Excluded folders as clean vault-relative prefixes (a list, or the plugin's comma-separated text). */
export function excludedFolders(value: TaskDetection['excluded_folders']): string[] {
  const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [];
  return list.map(cleanFolder).filter((f) => f !== '');
}

/** Inline `#tags` of a Markdown body, ignoring fenced code blocks and inline code spans. */
function bodyTags(body: string): string[] {
  const prose = body.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`]*`/g, ' ');
  return [...prose.matchAll(/(?:^|[^\w#])#([A-Za-z0-9][\w/-]*)/g)].map((m) => (m[1] as string).toLowerCase());
}

function frontmatterTags(frontmatter: Record<string, unknown>): string[] {
  const raw = frontmatter.tags;
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  return list.filter((t) => typeof t === 'string' || typeof t === 'number').map((t) => tagKey(String(t)));
}

/** Semantic equality of a frontmatter value and the configured text (`true` matches true). */
export function propertyMatches(value: unknown, expected: string): boolean {
  if (typeof value === 'boolean') return expected.toLowerCase() === String(value);
  return (typeof value === 'string' || typeof value === 'number') && String(value) === expected;
}

type Test = (note: NoteToDetect) => boolean;

export interface TaskDetector {
  /** Whether a path lies in an excluded folder (its notes are never tasks; no need to read them). */
  excludes(path: string): boolean;
  isTask(note: NoteToDetect): boolean;
}

/** Compiles a detection into a test of one note. */
export function taskDetector(detection: TaskDetection): TaskDetector {
  const excluded = excludedFolders(detection.excluded_folders);
  const excludes = (filePath: string): boolean => {
    if (excluded.length === 0 || filePath === '') return false;
    const path = filePath.replace(/\\/g, '/').replace(/^\/+/, '');
    return excluded.some((folder) => path === folder || path.startsWith(`${folder}/`));
  };
  const declared = (detection.methods ?? (detection.method ? [detection.method] : []))
    .map((m) => m.trim().toLowerCase())
    .filter((m) => m !== '');
  const methods = declared.length > 0 ? declared : detection.tag !== undefined ? ['tag'] : [];
  const tests = methods.flatMap((method): Test[] => {
    if (method === 'tag') {
      const wanted = tagKey(detection.tag ?? 'task');
      if (wanted === '') return [() => false];
      const inBody = detection.body_tags !== false;
      return [
        (note) =>
          frontmatterTags(note.frontmatter).some((t) => matchesTag(t, wanted)) ||
          (inBody && bodyTags(note.body).some((t) => matchesTag(t, wanted))),
      ];
    }
    if (method === 'property') {
      const name = (detection.property_name ?? '').trim();
      const value = detection.property_value ?? '';
      if (name === '') return [() => false];
      return [
        (note) => {
          if (!Object.hasOwn(note.frontmatter, name)) return false;
          if (value === '') return true;
          const raw = note.frontmatter[name];
          return (Array.isArray(raw) ? raw : [raw]).some((v) => propertyMatches(v, value));
        },
      ];
    }
    return [];
  });
  const all = detection.combine === 'and';
  return {
    excludes,
    isTask: (note) => {
      if (tests.length === 0 || excludes(note.filePath)) return false;
      return all ? tests.every((test) => test(note)) : tests.some((test) => test(note));
    },
  };
}

export function isTaskNote(note: NoteToDetect, detection: TaskDetection): boolean {
  return taskDetector(detection).isTask(note);
}

/** The detection of a TaskNotes vault: its settings' `task_detection` section, frontmatter only. */
export function detectionOf(settings: TaskNotesSettings): TaskDetection {
  const section = mapPluginSettings(settings).task_detection ?? {};
  return { ...(section as TaskDetection), body_tags: false };
}
