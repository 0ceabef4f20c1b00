/**
 * The task service: every read and write of task notes goes through here, and so does every
 * task event. Writes are atomic and serialized per note by the vault store; events are emitted
 * after the note is on disk and the index updated, for API calls and for edits made by other
 * programs alike (docs/api-decisions.md):
 * - a status change into a completed status emits only `task.completed`;
 * - any other change emits `task.updated` {task, previous};
 * - an archive toggle emits only `task.archived` / `task.unarchived`;
 * - create and delete emit `task.created` / `task.deleted`.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../clock.js';
import { invalid, notFound } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import { resolveVaultPath, type VaultPathPolicy } from '../vault/paths.js';
import { hashText } from '../vault/vault-scan.js';
import { VaultStore, type FreshNote, type NoteChange, type NoteRecord } from '../vault/vault-store.js';
import { INDEX_SNAPSHOT_FILE } from '../vault/index-snapshot.js';
import type { NotePrefetch } from '../vault/note-prefetch.js';
import { etagOfHash, preconditionFailed, preconditionHolds, type Precondition } from './etag.js';
import { storedDependencies } from '../dependencies/entry.js';
import { isRecord } from '../is-record.js';
import { retargetReference } from '../links/rename.js';
import { isCompletedStatus, normalizeFrontmatter, normalizeStatus } from './field-mapping.js';
import { uniqueNotePath } from './filename.js';
import { detectionOf, taskDetector, type TaskDetector } from '../config/task-detection.js';
import type { FrontmatterChanges } from './frontmatter-edit.js';
import { FrontmatterError, parseNote, serializeNewNote, updateNote, type ParsedNote } from './note-format.js';
import { planCreate, type CreatePlan, type TaskCreateInput } from './task-create.js';
import { applyCreateTemplate, templatingConfig } from '../templating/create-template.js';
import { vaultFilePath } from '../vault/vault-files.js';
import { changedKeys } from '../operations/patch.js';
import { planRename } from '../operations/rename.js';
import { assertDeletable } from '../operations/safety.js';
import {
  applyPatch,
  planEdit,
  setStatus,
  withTitle,
  type Change,
  type UpdateAdjuster,
} from './task-update.js';
import { MAPPED_FIELDS } from './task-fields.js';
import { roleMappingOf, type RoleMapping } from './role-mapping.js';
import { validateTask, type ValidationIssue, type ValidationReport } from '../validation/validate-task.js';
import type { ValidationMode } from '../validation/mode.js';
import { blockingIssues, validationFailure } from '../validation/write-check.js';
import { markShared, sharedHash } from './shared-views.js';
import { TaskGraph, newViewShape, type TaskBase } from './task-graph.js';
import type { TaskInfo } from './task-info.js';
import {
  firstCompletedStatus,
  loadTaskNotesSettings,
  TASKNOTES_DATA_JSON,
  type TaskNotesSettings,
} from './tasknotes-settings.js';

export type { TaskCreateInput } from './task-create.js';

export interface CreateOptions {
  /** Apply the vault's body template when it is on (default true; occurrence notes have their own). */
  bodyTemplate?: boolean;
  source?: 'nlp';
  originalText?: string;
  /** Filename (no `.md`, filename-safe) instead of the configured one, e.g. an occurrence filename template. */
  baseName?: string;
}

export interface WriteOptions {
  /**
   * Entity tags the caller accepts (If-Match): checked under the note's lock against the text
   * read from disk; a mismatch throws PRECONDITION_FAILED with the current task and writes nothing.
   */
  precondition?: Precondition;
}

export interface EditOptions extends WriteOptions {
  /** Write without emitting task events (the caller emits its own). */
  silent?: boolean;
}

export interface DeleteOptions extends WriteOptions {
  /** Refuse (CONFLICT) while other tasks link to the task through blockedBy, projects or recurrence_parent. */
  checkBacklinks?: boolean;
  /** Delete even so. */
  force?: boolean;
}

export interface ToggleOptions extends WriteOptions {
  /**
   * Run the toggle hooks (default true). A caller that holds another note's lock while toggling
   * turns them off and waits for what they wait for itself, after releasing that lock.
   */
  hooks?: boolean;
}

export type { UpdateAdjuster } from './task-update.js';

/** Runs after toggle-status wrote and emitted (e.g. reconciling a materialized occurrence's parent). */
export type ToggleHook = (change: { before: TaskInfo; after: TaskInfo }) => Promise<void>;

/** Told of a note this service moved, from its old path to its new one. */
export type MoveHook = (from: string, to: string) => void;

export interface TaskServiceOptions {
  vault: string;
  dataDir: string;
  events: EventBus;
  clock: Clock;
  log: Logger;
  /** Watcher stability wait in ms (tests may lower it). */
  stabilityMs?: number;
  /** Whether validation errors block writes (`strict`, the default) or are only logged. */
  validation?: ValidationMode;
  /** Scan once, without a watcher or an index snapshot (for `taskdown check`). */
  readOnly?: boolean;
  /**
   * The journal's check that a change's events were recorded: a change by another program whose
   * events were not is reported again later (VaultStoreOptions.recording).
   */
  recording?: <T>(work: () => Promise<T>) => Promise<T>;
  /** A start's walk of the vault; for a large vault, its notes already being read or looked up on a second thread (note-prefetch.ts). */
  prefetch?: NotePrefetch;
}

type TaskRecord = NoteRecord<ParsedNote>;
type EventMode = 'auto' | 'archive' | 'none';

/** Bump when parsing or identification changes what a note parses to (invalidates index snapshots). */
const NOTE_FORMAT_VERSION = 1;

/** Frontmatter with changes applied (an undefined value removes the key). */
function applyChanges(
  frontmatter: Record<string, unknown>,
  changes: readonly Change[],
): Record<string, unknown> {
  const out = { ...frontmatter };
  for (const [key, value] of changes) {
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out;
}

/** The request's name of a frontmatter key in an issue (`tasknotes_manual_order[0]` → `sortOrder[0]`). */
function requestField(settings: TaskNotesSettings, field: string | undefined): string | undefined {
  if (field === undefined) return undefined;
  const match = /^(.*?)(\[\d+\])?$/.exec(field);
  const key = match?.[1] ?? field;
  const prop = MAPPED_FIELDS.find((f) => settings.fieldMapping[f.mapping] === key)?.prop ?? key;
  return `${prop}${match?.[2] ?? ''}`;
}

/** Link-bearing fields whose references follow a renamed note. */
const REFERENCE_FIELDS = ['blockedBy', 'projects', 'recurrenceParent'] as const;

/** The link strings of a stored value: a dependency list's uids, a list's strings, a string. */
function linkValues(raw: unknown): string[] {
  const items = Array.isArray(raw) ? raw : [raw];
  return items.flatMap((item) =>
    typeof item === 'string' ? [item] : isRecord(item) && typeof item.uid === 'string' ? [item.uid] : [],
  );
}

/**
 * The note's new text; a frontmatter block that cannot be written so that it reads as the change
 * (and nothing else) is the client's 400, with nothing written.
 */
function updatedText(rel: string, text: string, changes: FrontmatterChanges, details?: string): string {
  try {
    return updateNote(text, changes, details);
  } catch (err) {
    if (!(err instanceof FrontmatterError)) throw err;
    // The parser's message goes on with an excerpt of the note: its first line says what is wrong.
    const reason = (err.message.split('\n')[0] ?? '').replace(/:$/, '');
    throw invalid(`${rel}: ${reason}; nothing was written`);
  }
}

/**
 * The warning for a TaskNotes settings file that cannot be read or parsed: the user's to fix, so
 * its reason rather than a stack trace (which `--log-format pretty` would print over ten lines).
 */
const settingsUnreadable =
  (log: Logger) =>
  (err: unknown): void =>
    log.warn(
      { reason: err instanceof Error ? err.message : String(err) },
      `cannot read ${TASKNOTES_DATA_JSON}; using TaskNotes defaults`,
    );

/** Lock key serializing the choice of new note paths (NUL never occurs in a vault path). */
const PATH_CLAIMS = '\u0000paths';

const basenameOf = (rel: string): string => path.posix.basename(rel).replace(/\.md$/i, '');

export class TaskService {
  private current: TaskNotesSettings;
  private readonly store: VaultStore<ParsedNote>;
  private readonly policy: VaultPathPolicy;
  /**
   * The dependency graph (and link index), built on first use and then kept in step with every
   * change of the index (onIndexChange); dropped when a full scan replaces the index.
   */
  private graphState: TaskGraph | undefined;
  /**
   * Read shapes built so far, per record. A change drops the shapes of the other tasks whose
   * computed fields it may alter (TaskGraph.change), so an ordinary edit rebuilds one read shape
   * and a burst of new notes none of the existing ones.
   */
  private views = new WeakMap<TaskRecord, TaskInfo>();
  /** Every read shape in path order, for the current index version. */
  private listCache: { version: number; list: TaskInfo[] } | undefined;
  private readonly adjusters: UpdateAdjuster[] = [];
  private readonly toggleHooks: ToggleHook[] = [];
  private readonly moveHooks: MoveHook[] = [];
  private settingsReload: Promise<void> = Promise.resolve();
  /** Note paths chosen for a create or rename whose write has not finished yet. */
  private readonly reserved = new Set<string>();
  /** The entity tag of the note version each handed-out task object was read from or written as. */
  private readonly etags = new WeakMap<TaskInfo, string>();

  private constructor(
    private readonly options: TaskServiceOptions,
    settings: TaskNotesSettings,
  ) {
    this.current = settings;
    this.policy = { root: options.vault, dataDir: options.dataDir };
    this.store = new VaultStore<ParsedNote>({
      policy: this.policy,
      log: options.log,
      parse: (rel, text) => this.parseTask(rel, text),
      onChange: (rel, before, after) => this.onIndexChange(rel, before, after),
      onReset: () => {
        this.graphState = undefined;
        this.views = new WeakMap();
      },
      watchFiles: [TASKNOTES_DATA_JSON],
      stabilityMs: options.stabilityMs,
      ...(options.recording ? { recording: options.recording } : {}),
      // Parse results depend on the note-format code and on the settings (identification,
      // excluded folders): both are part of the key, so a change of either re-parses everything.
      // A read-only service (taskdown check) writes nothing into the data dir.
      snapshot: options.readOnly
        ? undefined
        : {
            file: path.join(options.dataDir, INDEX_SNAPSHOT_FILE),
            key: () => `${NOTE_FORMAT_VERSION}:${JSON.stringify(this.current)}`,
          },
    });
    this.store.onExternalChange((change) => this.onExternalChange(change));
    this.store.onWatchedFileChange(() => this.reloadSettings());
  }

  /** Loads the TaskNotes settings, scans the vault and starts watching it. */
  static async open(options: TaskServiceOptions): Promise<TaskService> {
    const policy = { root: options.vault, dataDir: options.dataDir };
    const settings = await loadTaskNotesSettings(policy, settingsUnreadable(options.log));
    // The reader thread's buffers are the scan's only: the service does not keep them.
    const { prefetch, ...kept } = options;
    const service = new TaskService(kept, settings);
    if (options.readOnly) await service.store.rescan();
    else await service.store.start(prefetch);
    return service;
  }

  /** Closes the watcher and waits for in-flight writes. */
  async stop(): Promise<void> {
    await this.settingsReload;
    await this.store.stop();
  }

  // ---- reads ---------------------------------------------------------------------------------

  /**
   * Every task, sorted by path, in the read shape without details: one shared list per index
   * version (a copy of 100,000 entries per query was measurable), so neither the list nor its
   * objects may be changed.
   */
  list(): readonly TaskInfo[] {
    const { version } = this.store;
    if (this.listCache?.version !== version) {
      this.listCache = { version, list: this.store.all().map((r) => this.cachedView(r)) };
    }
    return this.listCache.list;
  }

  /** One page of `list()` and the total; builds the read shape of that page only. */
  page(offset: number, limit: number): { tasks: TaskInfo[]; total: number } {
    const all = this.store.all();
    return { tasks: all.slice(offset, offset + limit).map((r) => this.cachedView(r)), total: all.length };
  }

  /**
   * The entity tag (strong ETag) of the note version a task object returned by this service was
   * read from or written as; undefined for objects from elsewhere.
   */
  etagOf(task: TaskInfo): string | undefined {
    const hash = sharedHash(task);
    return hash === undefined ? this.etags.get(task) : etagOfHash(hash);
  }

  /** Index lookup of a task by id (vault-relative path), without details. */
  find(id: string): TaskInfo | undefined {
    const record = this.store.get(id);
    return record ? this.cachedView(record) : undefined;
  }

  /** Whether a task is indexed at this id (vault-relative path). */
  has(id: string): boolean {
    return this.store.get(id) !== undefined;
  }

  /** Paths of every task, sorted. */
  paths(): string[] {
    return this.store.all().map((r) => r.rel);
  }

  /** Paths of the tasks whose note has the frontmatter key of `field` (no read shapes built). */
  pathsWith(field: 'reminders'): string[] {
    return this.recordsWith(this.current.fieldMapping[field]).map((r) => r.rel);
  }

  /** The read shape with `details`. Throws NOT_FOUND 'Task not found', INVALID for unsafe ids. */
  async get(id: string): Promise<TaskInfo> {
    const rel = this.locate(id);
    const record = this.store.get(rel);
    if (!record) throw notFound('Task not found');
    return this.tagged({ ...this.cachedView(record), details: record.parsed.details }, record.hash);
  }

  /**
   * Runs `work` under the note's lock once `precondition` holds for the note on disk: for a
   * command addressed to this note that writes other notes (an occurrence of a recurring task).
   * `work` must not write this note itself (the lock is not reentrant).
   */
  async guard<T>(id: string, precondition: Precondition | undefined, work: () => Promise<T>): Promise<T> {
    const rel = this.locate(id);
    return this.store.withLock(rel, async () => {
      const record = await this.store.readFresh(rel);
      if (!record) throw notFound('Task not found');
      this.checkPrecondition(record, precondition);
      return work();
    });
  }

  /** Resolves a link (`[[Name]]`, `Name`, a path, a markdown link) to a task. */
  resolveLink(link: string, fromPath?: string): TaskInfo | undefined {
    const rel = this.graph().links.resolve(link, fromPath);
    return rel === undefined ? undefined : this.find(rel);
  }

  /** A task note's frontmatter as written, unmapped keys included (read-only), or undefined. */
  frontmatter(id: string): Readonly<Record<string, unknown>> | undefined {
    return this.store.get(id)?.parsed.frontmatter ?? undefined;
  }

  /** The effective TaskNotes settings (defaults merged with the plugin's data.json). */
  settings(): TaskNotesSettings {
    return this.current;
  }

  isCompletedStatus(status: string): boolean {
    return isCompletedStatus(status, this.current.customStatuses);
  }

  /** Increases on every index change (for caches derived from the task list). */
  get version(): number {
    return this.store.version;
  }

  // ---- writes --------------------------------------------------------------------------------

  /** POST /api/tasks: creates the note and emits `task.created`. Returns the read shape with details. */
  async create(input: TaskCreateInput, options: CreateOptions = {}): Promise<TaskInfo> {
    if (typeof input.title !== 'string' || input.title.trim() === '') throw invalid('Title is required');
    const now = this.options.clock.now();
    const settings = this.current;
    const plan = planCreate(input, settings, now);
    const folderRel = plan.folder;
    if (folderRel !== '') resolveVaultPath(this.policy, folderRel, 'tasks folder');
    // A file that appears at the chosen path meanwhile is never overwritten: another path is chosen.
    const baseName = options.baseName ?? plan.baseName;
    const task = await this.store.retryOnChange(`${folderRel}/${baseName}`, () =>
      this.withFreePath(folderRel, baseName, now, async (rel) => {
        let frontmatter = plan.finalize(basenameOf(rel));
        let details = plan.details;
        if (options.bodyTemplate !== false) {
          ({ frontmatter, body: details } = await this.applyTemplate(rel, frontmatter, details, plan, now));
        }
        this.checkWrite(rel, frontmatter, null, new Set(Object.keys(frontmatter)));
        const text = serializeNewNote(frontmatter, details);
        const record = await this.store.withLock(rel, () => this.store.write(rel, text, null));
        return this.tagged({ ...this.viewOf(rel, text, record), details }, record?.hash ?? hashText(text));
      }),
    );
    this.options.events.emit('task.created', {
      task,
      ...(options.source ? { source: options.source } : {}),
      ...(options.originalText !== undefined ? { originalText: options.originalText } : {}),
    });
    return task;
  }

  /**
   * PUT /api/tasks/:id: a partial update with docs/api-decisions.md semantics (null/[] deletes a field, tags keep
   * the identification tag, a title that differs from the filename stays in frontmatter). The
   * result has `details` when the patch had it.
   */
  async update(id: string, patch: Record<string, unknown>, options: WriteOptions = {}): Promise<TaskInfo> {
    if (Object.hasOwn(patch, 'title') && (typeof patch.title !== 'string' || patch.title.trim() === '')) {
      throw invalid('Title cannot be empty');
    }
    const { after, details } = await this.modify(
      id,
      'auto',
      (draft, before) =>
        applyPatch(draft, before, patch, {
          settings: this.current,
          now: this.options.clock.now(),
          adjusters: this.adjusters,
        }),
      options.precondition,
    );
    return Object.hasOwn(patch, 'details') ? this.retagged({ ...after, details }, after) : after;
  }

  /** DELETE: moves the note to `<vault>/.trash/` and emits `task.deleted` with the last read shape. */
  async delete(id: string, options: DeleteOptions = {}): Promise<TaskInfo> {
    const rel = this.locate(id);
    const task = await this.store.withLock(rel, async () => {
      const record = await this.store.readFresh(rel);
      if (!record) throw notFound('Task not found');
      this.checkPrecondition(record, options.precondition);
      // On request, refuse while other tasks still link to it (their links would break).
      assertDeletable({
        checkBacklinks: options.checkBacklinks === true,
        force: options.force === true,
        linkingNotes: options.checkBacklinks ? [...this.referencesTo(rel).keys()] : [],
      });
      const before = this.view(record);
      await this.store.trash(rel);
      return before;
    });
    this.options.events.emit('task.deleted', { task });
    return task;
  }

  /** Two-state toggle: completed → default status, otherwise → first completed status (as in the TaskNotes plugin). */
  async toggleStatus(id: string, options: ToggleOptions = {}): Promise<TaskInfo> {
    const { before, after } = await this.modify(
      id,
      'auto',
      (draft) => {
        const settings = this.current;
        const next = this.isCompletedStatus(String(draft.status))
          ? settings.defaultTaskStatus
          : firstCompletedStatus(settings);
        setStatus(draft, next, this.current, this.options.clock.now());
      },
      options.precondition,
    );
    if (options.hooks !== false) for (const hook of this.toggleHooks) await hook({ before, after });
    return after;
  }

  /** Flips the archive tag; emits only `task.archived` / `task.unarchived`. */
  async toggleArchive(id: string, options: WriteOptions = {}): Promise<TaskInfo> {
    const { after } = await this.modify(
      id,
      'archive',
      (draft) => {
        draft.archived = draft.archived !== true;
      },
      options.precondition,
    );
    return after;
  }

  /**
   * Read-modify-write of one task under its lock. `mutate` edits a draft in TaskInfo field names
   * (plus `details` for the body); a field set to undefined (or null) is removed; keys that are not
   * task fields are raw frontmatter keys. Emits the normal completed/updated rule unless silent.
   * `dateModified` is set to now when anything changed and the mutator did not set it.
   */
  async edit(
    id: string,
    mutate: (draft: Record<string, unknown>) => void | Promise<void>,
    options: EditOptions = {},
  ): Promise<{ before: TaskInfo; after: TaskInfo }> {
    const { before, after } = await this.modify(
      id,
      options.silent ? 'none' : 'auto',
      (draft) => mutate(draft),
      options.precondition,
    );
    return { before, after };
  }

  /** Registers a PUT adjuster (runs in order of registration). */
  addUpdateAdjuster(adjuster: UpdateAdjuster): void {
    this.adjusters.push(adjuster);
  }

  /** Registers a hook that runs after every toggle-status. */
  addToggleHook(hook: ToggleHook): void {
    this.toggleHooks.push(hook);
  }

  /**
   * Registers a hook told of every note this service moves (a rename by title, an archive move),
   * before the change's event: state that names a task by its path follows it there.
   */
  addMoveHook(hook: MoveHook): void {
    this.moveHooks.push(hook);
  }

  // ---- internals -----------------------------------------------------------------------------

  private parseTask(rel: string, text: string): ParsedNote | null {
    const detector = this.detector();
    if (detector.excludes(rel)) return null;
    const parsed = parseNote(text);
    if (!parsed.frontmatter) return null;
    return detector.isTask({ filePath: rel, frontmatter: parsed.frontmatter, body: parsed.details })
      ? parsed
      : null;
  }

  private detectorCache: { settings: TaskNotesSettings; detector: TaskDetector } | undefined;

  /** The vault's task detection, compiled once per settings (every note of a scan asks it). */
  private detector(): TaskDetector {
    const settings = this.current;
    if (this.detectorCache?.settings !== settings) {
      this.detectorCache = { settings, detector: taskDetector(detectionOf(settings)) };
    }
    return this.detectorCache.detector;
  }

  /** Validates a client id: INVALID for unsafe paths; NOT_FOUND for anything that is not a note. */
  private locate(id: string): string {
    const { rel } = resolveVaultPath(this.policy, id, 'task id');
    if (!rel.toLowerCase().endsWith('.md')) throw notFound('Task not found');
    return rel;
  }

  private baseOf(record: TaskRecord): TaskBase {
    return this.normalize(record.rel, record.parsed.frontmatter ?? {});
  }

  /** The normalised status of an indexed note (what the graph needs of a blocker). */
  private statusOf(record: TaskRecord): string {
    const settings = this.current;
    return normalizeStatus(record.parsed.frontmatter ?? {}, {
      mapping: settings.fieldMapping,
      statuses: settings.customStatuses,
      defaultStatus: settings.defaultTaskStatus,
    });
  }

  /**
   * Keeps the graph in step with one change of the index and drops the read shapes of the other
   * tasks whose computed fields the change may alter (the changed task's own record is new).
   */
  private onIndexChange(rel: string, before: TaskRecord | undefined, after: TaskRecord | undefined): void {
    const graph = this.graphState;
    if (!graph) return;
    const graphTask = (record: TaskRecord | undefined) =>
      record && {
        uids: this.dependencyUids(record.parsed.frontmatter),
        completed: this.isCompletedStatus(this.statusOf(record)),
      };
    for (const other of graph.change(rel, graphTask(before), graphTask(after))) {
      const record = this.store.get(other);
      if (record) this.views.delete(record);
    }
  }

  /** A note's normalised fields, set on `out` (see normalizeFrontmatter). */
  private normalize(
    rel: string,
    frontmatter: Record<string, unknown>,
    out?: Record<string, unknown>,
  ): TaskBase {
    const settings = this.current;
    return normalizeFrontmatter(
      frontmatter,
      {
        mapping: settings.fieldMapping,
        statuses: settings.customStatuses,
        priorities: settings.customPriorities,
        userFields: settings.userFields,
        defaultStatus: settings.defaultTaskStatus,
        path: rel,
      },
      out,
    ) as TaskBase;
  }

  private graph(): TaskGraph {
    this.graphState ??= new TaskGraph(
      this.store.all().map((r) => r.rel),
      this.recordsWith(this.current.fieldMapping.blockedBy).map((record) => ({
        path: record.rel,
        uids: this.dependencyUids(record.parsed.frontmatter),
      })),
      (p) => {
        const record = this.store.get(p);
        return record && this.statusOf(record);
      },
      (status) => this.isCompletedStatus(status),
    );
    return this.graphState;
  }

  /**
   * The read shape of an indexed record, built on demand (the first request after a start builds
   * one page, not 100,000 read shapes) and kept until the record is replaced or a change of
   * another task drops it (onIndexChange).
   */
  private cachedView(record: TaskRecord): TaskInfo {
    let view = this.views.get(record);
    if (!view) {
      view = markShared(this.view(record), record.hash);
      this.views.set(record, view);
    }
    return view;
  }

  private tagged<T extends TaskInfo>(task: T, hash: string): T {
    this.etags.set(task, etagOfHash(hash));
    return task;
  }

  /** `task` (a variant of `from`, e.g. with details) carries the version of `from`. */
  private retagged<T extends TaskInfo>(task: T, from: TaskInfo): T {
    const etag = this.etagOf(from);
    if (etag !== undefined) this.etags.set(task, etag);
    return task;
  }

  /** Throws PRECONDITION_FAILED, with the current task (details included), when it does not hold. */
  private checkPrecondition(record: FreshNote<ParsedNote>, precondition: Precondition | undefined): void {
    if (precondition === undefined) return;
    const etag = etagOfHash(record.hash);
    if (preconditionHolds(precondition, etag)) return;
    const current = this.tagged({ ...this.view(record), details: record.parsed.details }, record.hash);
    throw preconditionFailed(current, etag);
  }

  /** Records whose frontmatter has `key` (a field's normalised value needs its mapped key). */
  private recordsWith(key: string): TaskRecord[] {
    return this.store
      .all()
      .filter((r) => r.parsed.frontmatter !== null && Object.hasOwn(r.parsed.frontmatter, key));
  }

  private view(record: TaskRecord): TaskInfo {
    return this.noteView(record.rel, record.parsed.frontmatter);
  }

  /** The read shape of the note at `rel` with this frontmatter (see TaskGraph.view). */
  private noteView(rel: string, frontmatter: Record<string, unknown> | null): TaskInfo {
    return this.graph().view(
      this.normalize(rel, frontmatter ?? {}, newViewShape()),
      this.dependencyUids(frontmatter),
    );
  }

  /** The `blockedBy` uids of a note as written (links are resolved from these, not the read form). */
  private dependencyUids(frontmatter: Record<string, unknown> | null): string[] {
    const raw = frontmatter?.[this.current.fieldMapping.blockedBy];
    return raw === undefined ? [] : storedDependencies(raw).map((d) => d.uid);
  }

  /** Read shape of written text, also when it is no longer a task note (identification removed). */
  private viewOf(rel: string, text: string, record: TaskRecord | undefined): TaskInfo {
    if (record) return this.view(record);
    return this.noteView(rel, parseNote(text).frontmatter);
  }

  /**
   * The shared write path: lock, fresh read, draft, diff, write (renaming when the title or the
   * archive folder says so), index update, events. When another program changes the note between
   * the read and the write, the whole change is computed again from the current note
   * (VaultStore.retryOnChange), so its edit is never overwritten.
   */
  private async modify(
    id: string,
    mode: EventMode,
    mutate: (draft: Record<string, unknown>, before: TaskInfo) => void | Promise<void>,
    precondition?: Precondition,
  ): Promise<{ before: TaskInfo; after: TaskInfo; details: string }> {
    const rel = this.locate(id);
    const attempt = async () => {
      const record = await this.store.readFresh(rel);
      if (!record) throw notFound('Task not found');
      this.checkPrecondition(record, precondition);
      const settings = this.current;
      const base = this.baseOf(record);
      const before = this.tagged(this.view(record), record.hash);
      const draft: Record<string, unknown> = structuredClone({ ...base, details: record.parsed.details });
      await mutate(draft, before);

      const now = this.options.clock.now();
      const note = {
        path: rel,
        base,
        frontmatter: record.parsed.frontmatter ?? {},
        details: record.parsed.details,
      };
      const plan = planEdit(note, draft, settings, now, mode === 'archive');
      if (plan === null) return { before, after: before, details: record.parsed.details, changed: false };
      // A folder from the settings' template (which may hold the title) is checked as create
      // checks its folder, before anything is written.
      if (plan.move && plan.move.folder !== '') {
        const what = mode !== 'archive' ? 'folder' : draft.archived ? 'archive folder' : 'tasks folder';
        resolveVaultPath(this.policy, plan.move.folder, what);
      }

      const written = record.parsed.frontmatter ?? {};
      const planned = applyChanges(written, withTitle(plan, rel, settings));
      // dateModified is the server's own stamp: it is not a field the write sets.
      const changed = new Set(
        changedKeys(written, planned).filter((k) => k !== settings.fieldMapping.dateModified),
      );
      this.checkWrite(rel, planned, written, changed);

      const commit = async (target: string) => {
        // A move stays inside the vault and names a note.
        if (target !== rel) planRename(rel, target, false);
        const text = updatedText(rel, record.text, withTitle(plan, target, settings), plan.details);
        const written =
          target === rel
            ? await this.store.write(rel, text, record.hash)
            : await this.store.move(rel, target, text, record.hash);
        const after = this.tagged(this.viewOf(target, text, written), written?.hash ?? hashText(text));
        const details = written ? written.parsed.details : (plan.details ?? record.parsed.details);
        return { before, after, details, changed: true };
      };
      const { move } = plan;
      if (move === undefined) return commit(rel);
      // Found before the move, while links to the note still resolve to it.
      const referrers = this.referencesTo(rel);
      const moved = await this.withFreePath(move.folder, move.name, now, commit, {
        fallback: move.exact ? rel : undefined,
        self: rel,
      });
      return { ...moved, referrers };
    };
    const result = await this.store.withLock(rel, () => this.store.retryOnChange(rel, attempt));
    if (result.after.path !== rel) for (const hook of this.moveHooks) hook(rel, result.after.path);
    if (result.changed && mode !== 'none') this.emitChange(result.before, result.after, mode);
    if ('referrers' in result && result.after.path !== rel && result.referrers.size > 0) {
      await this.retargetReferences(result.referrers, rel, result.after.path);
      // The answer shows the links as they now are (`blocking` follows the rewritten references).
      const record = this.store.get(result.after.path);
      if (record) return { ...result, after: this.tagged(this.view(record), record.hash) };
    }
    return result;
  }

  /**
   * The vault's body template applied to a new note, when the settings turn it on. A template
   * that cannot be used is skipped with a logged warning (or aborts the create in `error` mode).
   */
  private async applyTemplate(
    rel: string,
    frontmatter: Record<string, unknown>,
    body: string,
    plan: CreatePlan,
    now: number,
  ): Promise<{ frontmatter: Record<string, unknown>; body: string }> {
    const config = templatingConfig(this.current);
    if (config.problem !== undefined)
      this.options.log.warn({ problem: config.problem }, 'body template not used');
    if (!config.enabled) return { frontmatter, body };
    const read = (templatePath: string) =>
      fs.readFile(vaultFilePath(this.policy, templatePath, 'body template'), 'utf8');
    const note = { frontmatter, body, task: plan.templateTask };
    const result = await applyCreateTemplate(note, config, new Date(now), read);
    for (const warning of result.warnings) {
      this.options.log.warn({ path: rel, code: warning.code }, `body template not used: ${warning.message}`);
    }
    return result;
  }

  /**
   * False while the vault folder is moved away or unmounted: the tasks are served as they were
   * (from the index), and whatever needs the disk (every write) answers UNAVAILABLE.
   */
  get vaultAvailable(): boolean {
    return this.store.available;
  }

  /** The validation mode writes run in. */
  get validationMode(): ValidationMode {
    return this.options.validation ?? 'strict';
  }

  /**
   * Validates the frontmatter a write would leave at `rel` (tasknotes-spec §6) against the vault's
   * settings. In strict mode the errors the write is responsible for (write-check.ts) refuse it
   * with INVALID, naming the request's field; in permissive mode they are logged and the write
   * goes on. `before` is the note as it was (null for a new note).
   */
  private checkWrite(
    rel: string,
    after: Record<string, unknown>,
    before: Record<string, unknown> | null,
    changed: ReadonlySet<string>,
  ): void {
    const validate = (frontmatter: Record<string, unknown>) => this.validate(rel, frontmatter);
    const blocking = blockingIssues(validate(after), before === null ? null : validate(before), changed);
    if (blocking.length === 0) return;
    const issues = blocking.map((issue) => ({ ...issue, field: requestField(this.current, issue.field) }));
    if (this.validationMode === 'permissive') {
      this.options.log.warn(
        { path: rel, issues },
        'writing a task note with validation errors (permissive mode)',
      );
      return;
    }
    throw validationFailure(issues);
  }

  /**
   * Every problem of every task note, as `taskdown check` lists them: the errors and warnings of
   * each note's validation, and the notes whose frontmatter is not valid YAML (which may or may
   * not be tasks, so they are warnings).
   */
  checkAll(): Array<{ path: string; issues: ValidationIssue[] }> {
    const out: Array<{ path: string; issues: ValidationIssue[] }> = [];
    const unreadable = new Map(this.store.brokenNotes().map((b) => [b.path, b.reason]));
    for (const record of this.store.all()) {
      const report = this.validate(record.rel, record.parsed.frontmatter ?? {});
      const issues = report.issues.filter((issue) => issue.severity !== 'info');
      if (issues.length > 0) out.push({ path: record.rel, issues });
    }
    for (const [path, reason] of unreadable) {
      const message = `not valid YAML, the note is not read: ${reason.split('\n')[0]}`;
      out.push({ path, issues: [{ code: 'invalid_frontmatter', severity: 'warning', message }] });
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** The validation report of a note's frontmatter at `rel`, with the vault's settings and links. */
  validate(rel: string, frontmatter: Record<string, unknown>): ValidationReport {
    const links = this.graph().links;
    return validateTask(frontmatter, this.roleMapping(), {
      taskPath: rel,
      reportUnknownFields: false,
      resolveTask: (value) => links.outcome(value, rel),
    });
  }

  private roleMappingCache: { settings: TaskNotesSettings; mapping: RoleMapping } | undefined;

  private roleMapping(): RoleMapping {
    const settings = this.current;
    if (this.roleMappingCache?.settings !== settings) {
      this.roleMappingCache = {
        settings,
        mapping: roleMappingOf(settings.fieldMapping, settings.customStatuses, settings.customPriorities),
      };
    }
    return this.roleMappingCache.mapping;
  }

  /**
   * The link values in other task notes that resolve to the note at `target`, per note: the
   * link-bearing fields whose references follow a renamed note (tasknotes-spec §11.9).
   */
  private referencesTo(target: string): Map<string, Set<string>> {
    const { links } = this.graph();
    const found = new Map<string, Set<string>>();
    for (const field of REFERENCE_FIELDS) {
      const key = this.current.fieldMapping[field];
      for (const record of this.recordsWith(key)) {
        if (record.rel === target) continue;
        for (const value of linkValues(record.parsed.frontmatter?.[key])) {
          if (links.resolve(value, record.rel) !== target) continue;
          let values = found.get(record.rel);
          if (!values) found.set(record.rel, (values = new Set()));
          values.add(value);
        }
      }
    }
    return found;
  }

  /**
   * After a note moved, rewrites the references to it that `referencesTo` found (each note is one
   * ordinary edit, with its task.updated event). A note that cannot be rewritten is logged: the
   * move itself has succeeded.
   */
  private async retargetReferences(
    referrers: Map<string, Set<string>>,
    from: string,
    to: string,
  ): Promise<void> {
    const mapping = this.current.fieldMapping;
    for (const [path, values] of referrers) {
      const retarget = (value: unknown): unknown =>
        typeof value === 'string' && values.has(value)
          ? retargetReference(value, from, to, this.paths())
          : value;
      try {
        await this.modify(path, 'auto', (draft) => {
          const raw = this.store.get(path)?.parsed.frontmatter ?? {};
          if (Object.hasOwn(raw, mapping.blockedBy)) {
            draft.blockedBy = storedDependencies(raw[mapping.blockedBy]).map(({ entry }) => ({
              ...entry,
              uid: retarget(entry.uid),
            }));
          }
          if (Object.hasOwn(raw, mapping.projects)) {
            const projects = raw[mapping.projects];
            draft.projects = (Array.isArray(projects) ? projects : [projects]).map(retarget);
          }
          if (Object.hasOwn(raw, mapping.recurrenceParent)) {
            draft.recurrence_parent = retarget(raw[mapping.recurrenceParent]);
          }
        });
      } catch (err) {
        this.options.log.warn({ err, path, from, to }, 'links to a renamed task could not be updated');
      }
    }
  }

  /**
   * Picks a free note path (`<folder>/<name>.md`, else with a `-2`… suffix) and reserves it while
   * `use` writes it, so concurrent creates and renames never pick the same name. A task's path is
   * taken in any letter case: links find notes ignoring case, so `task.md` beside `Task.md` would
   * make links to both ambiguous (`self`, the note being renamed, may change its own case).
   * With `fallback`, only the exact name is acceptable: when it is taken, `use` gets the fallback
   * (an archive move onto an existing file is skipped, as in the reference).
   */
  private async withFreePath<T>(
    folder: string,
    name: string,
    now: number,
    use: (rel: string) => Promise<T>,
    { fallback, self }: { fallback?: string; self?: string } = {},
  ): Promise<T> {
    const rel = await this.store.withLock(PATH_CLAIMS, async () => {
      const taken = async (p: string): Promise<boolean> => {
        const lower = p.toLowerCase();
        return (
          this.graph()
            .links.sameIgnoringCase(p)
            .some((other) => other !== self) ||
          [...this.reserved].some((claimed) => claimed.toLowerCase() === lower) ||
          (await this.store.exists(p))
        );
      };
      const exact = folder === '' ? `${name}.md` : `${folder}/${name}.md`;
      let chosen: string;
      if (fallback === undefined) chosen = await uniqueNotePath(folder, name, taken, now);
      else if (await taken(exact)) {
        this.options.log.warn({ path: fallback, target: exact }, 'archive move skipped: target exists');
        return fallback;
      } else chosen = exact;
      this.reserved.add(chosen);
      return chosen;
    });
    try {
      return await use(rel);
    } finally {
      if (rel !== fallback) this.reserved.delete(rel);
    }
  }

  private emitChange(before: TaskInfo, after: TaskInfo, mode: EventMode): void {
    const events = this.options.events;
    if (mode === 'archive' && before.archived !== after.archived) {
      events.emit(after.archived ? 'task.archived' : 'task.unarchived', { task: after });
      return;
    }
    if (!this.isCompletedStatus(before.status) && this.isCompletedStatus(after.status)) {
      events.emit('task.completed', { task: after });
    } else {
      events.emit('task.updated', { task: after, previous: before });
    }
  }

  /** Edits by other programs emit the same events as API edits (docs/api-decisions.md). */
  private onExternalChange(change: NoteChange<ParsedNote>): void {
    if (change.kind === 'added') {
      // The indexed record's shape, cached: the next list or query reuses it.
      this.options.events.emit('task.created', { task: this.cachedView(change.after) });
    } else if (change.kind === 'removed') {
      this.options.events.emit('task.deleted', { task: this.view(change.before) });
    } else {
      this.emitChange(this.view(change.before), this.cachedView(change.after), 'auto');
    }
  }

  private reloadSettings(): void {
    this.settingsReload = this.settingsReload.then(async () => {
      this.current = await loadTaskNotesSettings(this.policy, settingsUnreadable(this.options.log));
      await this.store.rescan();
      this.options.log.info({}, 'TaskNotes settings reloaded');
    });
  }
}
