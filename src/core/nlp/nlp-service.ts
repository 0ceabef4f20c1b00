/**
 * Natural-language task parsing and creation. The parser is configured from the effective
 * TaskNotes settings and rebuilt whenever they change (the reference keeps the parser it built at
 * startup; picking up a reloaded data.json is the behaviour a long-running server needs).
 * Creation goes through the task service, which writes the note and emits `task.created` with
 * `source: "nlp"` and the submitted text.
 */
import type { Clock } from '../clock.js';
import { leadingDayIsReal } from '../dates/calendar.js';
import { invalid } from '../errors.js';
import type { TaskInfo } from '../tasks/task-info.js';
import type { CreateOptions, TaskCreateInput } from '../tasks/task-service.js';
import type { TaskNotesSettings } from '../tasks/tasknotes-settings.js';
import { nlpSettingsFrom, type NlpSettings } from './nlp-settings.js';
import { buildTaskData } from './task-data.js';
import { TaskParser, type ParsedTask } from './task-parser.js';

/** What the NLP service needs from the task service. */
export interface NlpTaskPort {
  /** Effective TaskNotes settings (reloaded when data.json changes). */
  settings(): TaskNotesSettings;
  create(input: TaskCreateInput, options?: CreateOptions): Promise<TaskInfo>;
}

export interface ParseOptions {
  /** ISO 8601 instant that relative phrases ("tomorrow") are read against. */
  referenceDate?: string;
}

export interface ParseResult {
  parsed: ParsedTask;
  taskData: TaskCreateInput;
}

export interface CreateResult {
  task: TaskInfo;
  parsed: ParsedTask;
}

export const TEXT_REQUIRED = 'Text field is required and must be a string';
/** Longest text parsed: a task's wording plus details; the parser's time grows with the length. */
export const MAX_TEXT_LENGTH = 10_000;
// Digits grouped by hand rather than with toLocaleString: the first Intl number or date format in
// a process loads about 6 MB of ICU locale data into its resident memory (Node 20.20), and this
// module is loaded at every start.
export const TEXT_TOO_LONG = `Text is too long (at most ${String(MAX_TEXT_LENGTH).replace(/\B(?=(\d{3})+$)/g, ',')} characters)`;

export class NlpService {
  private cached: { key: string; settings: NlpSettings; parser: TaskParser } | undefined;

  constructor(
    private readonly tasks: NlpTaskPort,
    private readonly clock: Clock,
  ) {}

  async parse(text: unknown, options: ParseOptions = {}): Promise<ParseResult> {
    if (typeof text !== 'string' || text === '') throw invalid(TEXT_REQUIRED);
    // Characters, not UTF-16 units: an emoji is one (counted only when the units could exceed it).
    if (text.length > MAX_TEXT_LENGTH && [...text].length > MAX_TEXT_LENGTH) {
      throw invalid(TEXT_TOO_LONG, { field: 'text' });
    }
    const reference = this.referenceFrom(options.referenceDate);
    const { parser, settings } = await this.current();
    const parsed = parser.parse(text, reference);
    return { parsed, taskData: buildTaskData(parsed, settings, this.clock.now()) };
  }

  async create(text: unknown, options: ParseOptions = {}): Promise<CreateResult> {
    const { parsed, taskData } = await this.parse(text, options);
    const task = await this.tasks.create(
      { ...taskData, creationContext: 'api' },
      { source: 'nlp', originalText: text as string },
    );
    return { task, parsed };
  }

  private referenceFrom(value: string | undefined): Date {
    if (value === undefined) return new Date(this.clock.now());
    const date = new Date(value);
    if (Number.isNaN(date.getTime()) || !leadingDayIsReal(value)) {
      throw invalid('referenceDate must be an ISO 8601 date or date-time', { field: 'referenceDate' });
    }
    return date;
  }

  private async current(): Promise<{ parser: TaskParser; settings: NlpSettings }> {
    const settings = nlpSettingsFrom(this.tasks.settings());
    const key = JSON.stringify(settings);
    if (this.cached?.key !== key) {
      const parser = await TaskParser.create(settings);
      this.cached = { key, settings, parser };
    }
    return this.cached;
  }
}
