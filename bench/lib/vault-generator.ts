/**
 * A deterministic benchmark vault: 10,000 (or 100,000) TaskNotes task notes (fixed seed) with realistic
 * frontmatter — statuses, priorities, due/scheduled dates and date-times, tags, contexts,
 * projects (wikilinks to project notes that are tasks too), time estimates and entries,
 * recurrences with completed instances, dependencies, reminders and body text — plus some
 * plain notes that are not tasks. Generated once and cached under bench/.cache.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../../test/helpers/seeded-random.js';

const CACHE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.cache');
/** Bump when the generated content changes, so a stale cache is not reused. */
const GENERATOR_VERSION = 2;
const TASK_FOLDER = 'TaskNotes/Tasks';

const VERBS = [
  'Review',
  'Write',
  'Fix',
  'Plan',
  'Call',
  'Email',
  'Draft',
  'Update',
  'Prepare',
  'Check',
  'Order',
  'Book',
];
const NOUNS = [
  'quarterly report',
  'login bug',
  'team offsite',
  'dentist',
  'client proposal',
  'release notes',
  'budget',
  'garden shed',
  'tax return',
  'onboarding docs',
  'website copy',
  'backup script',
  'conference talk',
  'invoice',
  'car service',
];
const TAGS = [
  'work',
  'home',
  'errand',
  'writing',
  'dev',
  'finance',
  'health',
  'reading',
  'work/urgent',
  'someday',
];
const CONTEXTS = ['@office', '@home', '@phone', '@computer', '@errands', '@garden'];
const STATUSES: Array<[string, number]> = [
  ['open', 0.45],
  ['in-progress', 0.2],
  ['done', 0.3],
  ['none', 0.05],
];
const PRIORITIES: Array<[string, number]> = [
  ['none', 0.1],
  ['low', 0.3],
  ['normal', 0.35],
  ['high', 0.25],
];
const RULES = [
  'FREQ=DAILY',
  'FREQ=WEEKLY;BYDAY=MO,WE,FR',
  'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU',
  'FREQ=MONTHLY;BYMONTHDAY=1',
];
const PROJECT_COUNT = 60;
const SENTENCES = [
  'Follow up with the team about the open questions.',
  'Notes from the last meeting are in the shared folder.',
  'Remember to attach the latest numbers.',
  'Blocked until the supplier confirms the date.',
  'Split this into smaller steps if it drags on.',
  'Ask for feedback before sending it out.',
];

export interface GeneratedVault {
  dir: string;
  taskCount: number;
  /** Vault-relative paths of task notes, in generation order. */
  taskPaths: string[];
}

const pad = (n: number): string => String(n).padStart(2, '0');
const day = (base: number, offsetDays: number): string => {
  const d = new Date(base + offsetDays * 86_400_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};

/** A task the edit-latency benchmark rewrites (and restores); kept apart from the 10,000. */
export const EDIT_TARGET = 'Bench/Edit target.md';
export const EDIT_TARGET_TEXT = (title: string): string =>
  `---\ntitle: ${title}\nstatus: open\npriority: normal\ntags:\n  - task\n---\n\nRewritten by the benchmark.\n`;

export function taskPath(i: number): string {
  return `${TASK_FOLDER}/Task ${String(i).padStart(5, '0')}.md`;
}

function renderTask(i: number, random: () => number, base: number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const weighted = (list: Array<[string, number]>): string => {
    let r = random();
    for (const [v, w] of list) if ((r -= w) < 0) return v;
    return list[list.length - 1]![0];
  };
  const lines: string[] = ['---'];
  lines.push(`title: ${pick(VERBS)} ${pick(NOUNS)} ${i}`);
  const status = weighted(STATUSES);
  lines.push(`status: ${status}`, `priority: ${weighted(PRIORITIES)}`);
  if (random() < 0.7) {
    const due = day(base, Math.floor(random() * 120) - 60);
    lines.push(random() < 0.2 ? `due: ${due}T${pad(8 + Math.floor(random() * 10))}:00` : `due: ${due}`);
  }
  if (random() < 0.5) lines.push(`scheduled: ${day(base, Math.floor(random() * 60) - 30)}`);
  if (random() < 0.6) lines.push('contexts:', `  - "${pick(CONTEXTS)}"`);
  if (random() < 0.5) lines.push('projects:', `  - "[[Project ${Math.floor(random() * PROJECT_COUNT)}]]"`);
  if (random() < 0.4) lines.push(`timeEstimate: ${15 * (1 + Math.floor(random() * 8))}`);
  if (status === 'done') lines.push(`completedDate: ${day(base, -Math.floor(random() * 30))}`);
  const created = base - Math.floor(random() * 200) * 86_400_000;
  lines.push(
    `dateCreated: ${new Date(created).toISOString()}`,
    `dateModified: ${new Date(created + 3_600_000).toISOString()}`,
  );
  if (random() < 0.1) {
    lines.push(`recurrence: DTSTART:${day(created, 0).replace(/-/g, '')};${pick(RULES)}`);
    lines.push('complete_instances:', `  - "${day(base, -1)}"`, `  - "${day(base, -2)}"`);
  }
  if (random() < 0.15) {
    const start = created + 86_400_000;
    lines.push(
      'timeEntries:',
      `  - startTime: ${new Date(start).toISOString()}`,
      `    endTime: ${new Date(start + 45 * 60_000).toISOString()}`,
      '    description: Work session',
    );
  }
  if (random() < 0.05 && i > 0) {
    lines.push(
      'blockedBy:',
      `  - uid: "[[Task ${String(Math.floor(random() * i)).padStart(5, '0')}]]"`,
      '    reltype: FINISHTOSTART',
    );
  }
  if (random() < 0.05) {
    lines.push(
      'reminders:',
      `  - id: rem_${i}`,
      '    type: relative',
      '    relatedTo: due',
      '    offset: -PT1H',
    );
  }
  const tags = ['task', ...new Set([pick(TAGS), ...(random() < 0.3 ? [pick(TAGS)] : [])])];
  if (random() < 0.05) tags.push('archived');
  lines.push('tags:', ...tags.map((t) => `  - ${t}`), '---', '');
  const body =
    random() < 0.6 ? Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(SENTENCES)) : [];
  return `${lines.join('\n')}\n${body.join('\n')}${body.length > 0 ? '\n' : ''}`;
}

/**
 * `count` more task notes like the vault's (another seed), for a burst of notes written by another
 * program: vault-relative paths under `folder` and their texts.
 */
export function burstNotes(folder: string, count: number, seed = 7): Array<{ rel: string; text: string }> {
  const random = seededRandom(seed);
  const base = Date.UTC(2026, 10, 1);
  return Array.from({ length: count }, (_, i) => ({
    rel: `${folder}/Burst ${String(i).padStart(5, '0')}.md`,
    text: renderTask(i, random, base),
  }));
}

/** Creates (or reuses) the cached vault with `count` tasks. Dates are relative to a fixed day. */
export async function generateVault(count = 10_000, seed = 42): Promise<GeneratedVault> {
  const dir = path.join(CACHE, `vault-${count}-s${seed}-v${GENERATOR_VERSION}`);
  const taskPaths = Array.from({ length: count }, (_, i) => taskPath(i));
  const marker = path.join(dir, '.complete');
  const taskCount = count + PROJECT_COUNT + 1;
  if (existsSync(marker)) return { dir, taskCount, taskPaths };

  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, TASK_FOLDER), { recursive: true });
  await mkdir(path.join(dir, 'Projects'), { recursive: true });
  await mkdir(path.join(dir, 'Notes'), { recursive: true });
  const random = seededRandom(seed);
  const base = Date.UTC(2026, 10, 1);
  for (let i = 0; i < count; i += 200) {
    const batch: Promise<void>[] = [];
    for (let j = i; j < Math.min(count, i + 200); j++) {
      batch.push(writeFile(path.join(dir, taskPaths[j]!), renderTask(j, random, base)));
    }
    await Promise.all(batch);
  }
  for (let p = 0; p < PROJECT_COUNT; p++) {
    await writeFile(
      path.join(dir, 'Projects', `Project ${p}.md`),
      `---\ntitle: Project ${p}\nstatus: open\ntags:\n  - task\n  - project\n---\n\nProject overview.\n`,
    );
  }
  for (let k = 0; k < 200; k++) {
    await writeFile(
      path.join(dir, 'Notes', `Note ${k}.md`),
      `# Note ${k}\n\n${SENTENCES[k % SENTENCES.length]}\n`,
    );
  }
  await mkdir(path.join(dir, 'Bench'), { recursive: true });
  await writeFile(path.join(dir, EDIT_TARGET), EDIT_TARGET_TEXT('Edit target'));
  await backdate(dir, new Date(base));
  // Setting a file's times is a change of the file: its status-change time (ctime) is now, and
  // the server only snapshots notes whose ctime is more than 2 s older than its scan.
  await new Promise((r) => setTimeout(r, 2_100));
  await writeFile(marker, new Date().toISOString());
  return { dir, taskCount, taskPaths };
}

/**
 * Gives every note a modification time in the past, as in a vault that is not being written to.
 * The server leaves notes modified in the two seconds before a scan out of its index snapshot
 * (their content may still change without changing their metadata), so in a freshly generated
 * vault a restart would read every note again and measure a first start instead.
 */
async function backdate(dir: string, when: Date): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const notes = entries.filter((e) => e.isFile() && e.name.endsWith('.md'));
  for (let i = 0; i < notes.length; i += 200) {
    await Promise.all(
      notes.slice(i, i + 200).map((e) => utimes(path.join(e.parentPath, e.name), when, when)),
    );
  }
}
