/**
 * Filenames and folders for new task notes (as in the TaskNotes plugin).
 */
import { randomUUID } from 'node:crypto';
import { localDate } from './local-time.js';
import type { TaskNotesSettings } from './tasknotes-settings.js';

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;

/** The title used in frontmatter and responses: trimmed, whitespace collapsed, no control chars. */
export function storageTitle(title: string): string {
  const cleaned = title.replace(CONTROL_CHARS, '').replace(/\s+/g, ' ').trim();
  return cleaned === '' ? 'untitled' : cleaned;
}

/**
 * Unicode's bidirectional controls (LRE … RLO, LRI … PDI, LRM, RLM, ALM). Invisible, they make a
 * name display in another order than it is spelt (`\u202Efdp.exe` shows as `exe.pdf` in a file
 * manager or a terminal), so no file or folder name made from a title or a template keeps them;
 * the title in the note keeps what was sent.
 */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/i;

/**
 * Longest file or folder name made from a title, in UTF-8 bytes. File systems allow 255 bytes per
 * name; a note's name also gets `.md`, a `-999` or time-based uniqueness suffix, and while it is
 * written the atomic writer's temp name adds 18 more bytes, so a title-made name stops well short.
 */
export const MAX_NAME_BYTES = 180;

/**
 * Made on first use: creating a segmenter loads ICU's break-iteration data, about 2 MB of the
 * server's resident memory (Node 20.20), and most processes never cut a name.
 */
let graphemes: Intl.Segmenter | undefined;

/** `name` cut to at most `maxBytes` UTF-8 bytes at a character boundary (no split emoji or accent). */
export function truncateBytes(name: string, maxBytes = MAX_NAME_BYTES): string {
  if (Buffer.byteLength(name, 'utf8') <= maxBytes) return name;
  let out = '';
  let bytes = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(name)) {
    const size = Buffer.byteLength(segment, 'utf8');
    if (bytes + size > maxBytes) break;
    out += segment;
    bytes += size;
  }
  return out;
}

const withoutOuterDots = (name: string): string => name.replace(/^\.+|\.+$/g, '').trim();

/**
 * The title as a filename: storage title minus `<>:"/\|?*#[]`, bidirectional controls and
 * leading/trailing dots, cut to
 * MAX_NAME_BYTES (the full title then stays in the note's frontmatter).
 */
export function filenameSafeTitle(title: string): string {
  const cleaned = withoutOuterDots(
    storageTitle(title)
      .replace(/[<>:"/\\|?*#[\]]/g, '')
      .replace(BIDI_CONTROLS, ''),
  );
  let name = withoutOuterDots(truncateBytes(cleaned));
  if (name === '') name = 'untitled';
  return WINDOWS_RESERVED.test(name) ? `task-${name}` : name;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

function zettel(ms: number): string {
  const d = new Date(ms);
  const midnight = new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const seconds = Math.floor((ms - midnight) / 1000);
  return `${String(d.getFullYear()).slice(2)}${pad(d.getMonth() + 1)}${pad(d.getDate())}${seconds.toString(36)}`;
}

function timestamp(ms: number): string {
  const d = new Date(ms);
  return `${localDate(ms)}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
}

export interface FilenameContext {
  title: string;
  priority?: string;
  status?: string;
  due?: string;
  scheduled?: string;
  contexts?: readonly string[];
  projects?: readonly string[];
  tags?: readonly string[];
  now: number;
}

/** The base filename (no `.md`, before uniqueness) for a new task. */
export function baseFilename(settings: TaskNotesSettings, ctx: FilenameContext): string {
  if (settings.storeTitleInFilename) return filenameSafeTitle(ctx.title);
  switch (settings.taskFilenameFormat) {
    case 'title':
      return filenameSafeTitle(ctx.title);
    case 'timestamp':
      return timestamp(ctx.now);
    case 'uuid':
      return randomUUID();
    case 'custom': {
      const rendered = renderTemplate(settings.customFilenameTemplate, filenameVariables(ctx));
      const safe = filenameSafeTitle(rendered);
      return rendered.trim() === '' || safe === 'untitled' ? filenameSafeTitle(ctx.title) : safe;
    }
    default:
      return zettel(ctx.now);
  }
}

function filenameVariables(ctx: FilenameContext): Record<string, string> {
  const d = new Date(ctx.now);
  return {
    title: storageTitle(ctx.title),
    date: localDate(ctx.now),
    time: `${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`,
    year: String(d.getFullYear()),
    month: pad(d.getMonth() + 1),
    day: pad(d.getDate()),
    priority: ctx.priority ?? '',
    status: ctx.status ?? '',
    dueDate: ctx.due ?? '',
    scheduledDate: ctx.scheduled ?? '',
    context: ctx.contexts?.[0] ?? '',
    contexts: (ctx.contexts ?? []).join('-'),
    project: linkDisplayName(ctx.projects?.[0] ?? ''),
    projects: (ctx.projects ?? []).map(linkDisplayName).join('-'),
    tags: (ctx.tags ?? []).join('-'),
    zettel: zettel(ctx.now),
    uuid: randomUUID(),
    timestamp: timestamp(ctx.now),
  };
}

/** `{{var}}` or legacy `{var}`; unknown variables become empty. */
function renderTemplate(template: string, vars: Record<string, string>): string {
  return template.replace(
    /\{\{\s*([\w]+)\s*\}\}|\{([\w]+)\}/g,
    (_m, a: string | undefined, b: string | undefined) => {
      const name = (a ?? b) as string;
      return Object.hasOwn(vars, name) ? (vars[name] as string) : '';
    },
  );
}

function linkDisplayName(link: string): string {
  const inner = /^\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]$/.exec(link.trim());
  const target = inner ? (inner[2] ?? inner[1] ?? '') : link.trim();
  return target.split('/').pop() ?? target;
}

const DAILY_TOKENS: ReadonlyArray<[RegExp, (d: Date) => string]> = [
  [/YYYY/g, (d) => String(d.getFullYear())],
  [/YY/g, (d) => String(d.getFullYear()).slice(2)],
  [/MMMM/g, (d) => d.toLocaleString('en-US', { month: 'long' })],
  [/MMM/g, (d) => d.toLocaleString('en-US', { month: 'short' })],
  [/MM/g, (d) => pad(d.getMonth() + 1)],
  [/DD/g, (d) => pad(d.getDate())],
  [/dddd/g, (d) => d.toLocaleString('en-US', { weekday: 'long' })],
  [/ddd/g, (d) => d.toLocaleString('en-US', { weekday: 'short' })],
];

/**
 * Processes a folder template (`tasksFolder`): Daily-Notes date tokens (replaced literally, as
 * the reference does), then `{{variables}}`, then `.`/`..` normalisation. Note-context variables
 * (`{{currentNotePath}}`) are empty in a headless service.
 */
export function processFolderTemplate(template: string, ctx: FilenameContext): string {
  const d = new Date(ctx.now);
  const vars: Record<string, string> = {
    ...filenameVariables(ctx),
    contexts: (ctx.contexts ?? []).join('/'),
    projects: (ctx.projects ?? []).map(linkDisplayName).join('/'),
    projectFilePath: stripLink(ctx.projects?.[0] ?? ''),
    projectFolder: stripLink(ctx.projects?.[0] ?? '')
      .split('/')
      .slice(0, -1)
      .join('/'),
    currentNotePath: '',
    currentNoteTitle: '',
  };
  // Date tokens first, so that variable values (a title containing "DD") are not mangled.
  let out = template;
  for (const [re, fn] of DAILY_TOKENS) out = out.replace(re, fn(d));
  out = renderTemplate(out, vars);
  const segments: string[] = [];
  for (const seg of out.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') segments.pop();
    else segments.push(truncateBytes(seg.replace(BIDI_CONTROLS, '')).trim());
  }
  return segments.join('/');
}

function stripLink(link: string): string {
  const inner = /^\[\[([^\]|#]*)/.exec(link.trim());
  return (inner ? (inner[1] ?? '') : link.trim()).replace(/\.md$/i, '');
}

/**
 * The first free `<folder>/<name>.md`, trying `-2` … `-999`, then a time-based fallback
 * (as in the TaskNotes plugin). `exists` is asked about vault-relative paths.
 */
export async function uniqueNotePath(
  folder: string,
  name: string,
  exists: (rel: string) => Promise<boolean>,
  now: number,
): Promise<string> {
  const join = (base: string): string => (folder === '' ? `${base}.md` : `${folder}/${base}.md`);
  if (!(await exists(join(name)))) return join(name);
  for (let i = 2; i <= 999; i++) {
    const candidate = join(`${name}-${i}`);
    if (!(await exists(candidate))) return candidate;
  }
  const fallback = join(`${name.slice(0, 50)}-${now.toString(36)}`);
  return fallback.length > 260 ? join(`task-${now.toString(36)}`) : fallback;
}
