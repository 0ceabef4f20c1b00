/**
 * The natural-language parser: `tasknotes-nlp-core` plus the four post-processing steps that the
 * TaskNotes plugin keeps in its own adapter, so one text yields the same
 * fields as TaskNotes does.
 *
 * The core reads "now" from `new Date()` when it calls chrono. To let a request pin the reference
 * instant (deterministic tests, "parse as of"), the core's chrono accessor is wrapped so every
 * chrono call of one `parse` receives the caller's instant. Parsing is synchronous, so the
 * instant set for one call can never leak into another.
 *
 * The core (with chrono-node and date-fns: ~660 modules, ~300 ms and ~18 MB) is loaded on first
 * use, not at server start.
 */
import type { NaturalLanguageParserCore, ParsedTaskData, UserMappedField } from 'tasknotes-nlp-core';
import type { NlpSettings } from './nlp-settings.js';

export type ParsedUserFieldValue = string | string[] | boolean;

/** The core's output after adapter normalisation: booleans are real booleans. */
export interface ParsedTask extends Omit<ParsedTaskData, 'userFields' | 'isCompleted'> {
  userFields?: Record<string, ParsedUserFieldValue>;
}

interface ChronoLike {
  parse(text: string, ref?: unknown, option?: unknown): unknown;
}
interface CoreInternals {
  getChronoParser(): ChronoLike;
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

export class TaskParser {
  private readonly core: NaturalLanguageParserCore;
  private reference: Date | undefined;

  /** Loads the core on first call (later calls reuse the loaded module). */
  static async create(settings: NlpSettings): Promise<TaskParser> {
    const { NaturalLanguageParserCore: Core } = await import('tasknotes-nlp-core');
    return new TaskParser(settings, Core);
  }

  private constructor(
    private readonly settings: NlpSettings,
    Core: typeof NaturalLanguageParserCore,
  ) {
    this.core = new Core(
      settings.statuses,
      settings.priorities,
      settings.defaultToScheduled,
      settings.language,
      settings.triggers,
      settings.userFields,
      { dateLocale: settings.dateLocale },
    );
    const internals = this.core as unknown as Partial<CoreInternals>;
    if (typeof internals.getChronoParser !== 'function') {
      // The hook is internal to tasknotes-nlp-core 0.1.x; fail loudly rather than ignore referenceDate.
      throw new Error('tasknotes-nlp-core has no getChronoParser(); update the NLP adapter');
    }
    const original = internals.getChronoParser.bind(this.core);
    internals.getChronoParser = () => {
      const chrono = original();
      const reference = this.reference;
      if (!reference) return chrono;
      return { parse: (text, _ref, option) => chrono.parse(text, new Date(reference), option) };
    };
  }

  /** Parses `text` as of `reference` (default: the current instant). */
  parse(text: string, reference?: Date): ParsedTask {
    this.reference = reference;
    try {
      const core = this.core.parseInput(text);
      const { isCompleted: _unused, userFields, ...rest } = core;
      const parsed: ParsedTask = { ...rest, ...(userFields ? { userFields: { ...userFields } } : {}) };
      this.applyStatusShortcut(text, parsed);
      this.removePriorityResidue(parsed);
      this.extractLinkedUserFields(text, parsed);
      this.normaliseUserFields(parsed);
      return parsed;
    } finally {
      this.reference = undefined;
    }
  }

  private trigger(propertyId: string): { trigger: string; enabled: boolean } | undefined {
    return this.settings.triggers.triggers.find((t) => t.propertyId === propertyId);
  }

  /**
   * `*In progress*` style tokens: the core matches `*In progress` and leaves the closing `*`;
   * the adapter still takes the longest such token as the status, as the reference does.
   */
  private applyStatusShortcut(input: string, parsed: ParsedTask): void {
    const def = this.trigger('status');
    if (!def?.enabled || this.settings.statuses.length === 0) return;
    const t = escapeRegex(def.trigger);
    let best: { value: string; token: string } | undefined;
    for (const s of this.settings.statuses) {
      for (const candidate of [s.value, s.label]) {
        if (!candidate) continue;
        const re = new RegExp(`(?:^|\\s)(${t}${escapeRegex(candidate)}(?:${t})?)(?=\\s|$)`, 'iu');
        const m = re.exec(input);
        if (m?.[1] && (!best || m[1].length > best.token.length)) best = { value: s.value, token: m[1] };
      }
    }
    if (!best) return;
    parsed.status = best.value;
    const token = best.token;
    parsed.title = collapse(parsed.title.split(token).join(' '));
  }

  /** `Fix !high bug` with the trigger disabled leaves a lone `!` behind; drop it. */
  private removePriorityResidue(parsed: ParsedTask): void {
    if (!parsed.priority) return;
    const trigger = this.trigger('priority')?.trigger ?? '!';
    const re = new RegExp(`(^|\\s)${escapeRegex(trigger)}(?=\\s|$)`, 'gu');
    parsed.title = collapse(parsed.title.replace(re, '$1'));
  }

  /** `owner:[[Jane Doe]]` or `link:[text](url)` for user-field triggers. */
  private extractLinkedUserFields(input: string, parsed: ParsedTask): void {
    for (const def of this.settings.triggers.triggers) {
      if (!def.enabled) continue;
      const field = this.settings.userFields.find((f) => f.id === def.propertyId);
      if (!field) continue;
      const pattern = new RegExp(
        `${escapeRegex(def.trigger)}(\\[\\[[^\\]]+\\]\\]|\\[[^\\]]+\\]\\([^)]+\\))`,
        'gu',
      );
      const values = Array.from(input.matchAll(pattern), (m) => m[1]).filter(
        (v): v is string => typeof v === 'string' && v.length > 0,
      );
      if (values.length === 0) continue;
      parsed.userFields ??= {};
      if (field.type === 'list') {
        const existing = parsed.userFields[field.id];
        const before = Array.isArray(existing) ? existing : typeof existing === 'string' ? [existing] : [];
        parsed.userFields[field.id] = [...before, ...values];
      } else {
        parsed.userFields[field.id] = values[values.length - 1] as string;
      }
      parsed.title = collapse(parsed.title.replace(pattern, ''));
    }
  }

  /** Booleans become booleans; date fields are re-read as dates when they parse. */
  private normaliseUserFields(parsed: ParsedTask): void {
    const values = parsed.userFields;
    if (!values) return;
    for (const field of this.settings.userFields) {
      const value = values[field.id];
      if (value === undefined) continue;
      values[field.id] = this.normaliseValue(field, value);
    }
  }

  private normaliseValue(field: UserMappedField, value: ParsedUserFieldValue): ParsedUserFieldValue {
    if (field.type === 'boolean' && typeof value === 'string') {
      const lower = value.toLowerCase();
      if (lower === 'true') return true;
      if (lower === 'false') return false;
      return value;
    }
    if (field.type === 'date' && typeof value === 'string') {
      const again = this.core.parseInput(value);
      return again.scheduledDate || again.dueDate || value;
    }
    return value;
  }
}
