/**
 * The slice of the TaskNotes settings that configures the natural-language parser (reference
 * other-routes.md §3.2). Read from whatever the task service reports as the effective settings
 * (defaults overlaid by `.obsidian/plugins/tasknotes/data.json`); every key falls back to the
 * plugin's default so a vault without a data.json parses exactly like a fresh TaskNotes install.
 */
import {
  DEFAULT_NLP_TRIGGERS,
  type NLPTriggersConfig,
  type PriorityConfig,
  type PropertyTriggerConfig,
  type StatusConfig,
  type UserMappedField,
} from 'tasknotes-nlp-core';

export interface NlpSettings {
  statuses: StatusConfig[];
  priorities: PriorityConfig[];
  defaultTaskStatus: string;
  defaultTaskPriority: string;
  defaultToScheduled: boolean;
  language: string;
  triggers: NLPTriggersConfig;
  userFields: UserMappedField[];
  /** Decides day-first vs month-first numeric dates (03/04/2026). */
  dateLocale: string;
}

const status = (
  value: string,
  label: string,
  color: string,
  isCompleted: boolean,
  order: number,
): StatusConfig => ({
  id: value,
  value,
  label,
  color,
  isCompleted,
  order,
  autoArchive: false,
  autoArchiveDelay: 5,
});

export const DEFAULT_STATUSES: StatusConfig[] = [
  status('none', 'None', '#cccccc', false, 0),
  status('open', 'Open', '#808080', false, 1),
  status('in-progress', 'In progress', '#0066cc', false, 2),
  status('done', 'Done', '#00aa00', true, 3),
];

export const DEFAULT_PRIORITIES: PriorityConfig[] = [
  { id: 'none', value: 'none', label: 'None', color: '#cccccc', weight: 0 },
  { id: 'low', value: 'low', label: 'Low', color: '#00aa00', weight: 1 },
  { id: 'normal', value: 'normal', label: 'Normal', color: '#ffaa00', weight: 2 },
  { id: 'high', value: 'high', label: 'High', color: '#ff0000', weight: 3 },
];

const USER_FIELD_TYPES = new Set(['text', 'number', 'date', 'boolean', 'list']);

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, fallback: string): string => (typeof v === 'string' && v !== '' ? v : fallback);

function statusesFrom(v: unknown): StatusConfig[] {
  if (!Array.isArray(v)) return DEFAULT_STATUSES;
  return v.filter(isRecord).flatMap((s, i) => {
    if (typeof s.value !== 'string') return [];
    return [
      {
        id: str(s.id, s.value),
        value: s.value,
        label: str(s.label, s.value),
        color: str(s.color, '#808080'),
        isCompleted: s.isCompleted === true,
        order: typeof s.order === 'number' ? s.order : i,
        autoArchive: s.autoArchive === true,
        autoArchiveDelay: typeof s.autoArchiveDelay === 'number' ? s.autoArchiveDelay : 5,
      },
    ];
  });
}

function prioritiesFrom(v: unknown): PriorityConfig[] {
  if (!Array.isArray(v)) return DEFAULT_PRIORITIES;
  return v.filter(isRecord).flatMap((p) => {
    if (typeof p.value !== 'string') return [];
    return [
      {
        id: str(p.id, p.value),
        value: p.value,
        label: str(p.label, p.value),
        color: str(p.color, '#808080'),
        weight: typeof p.weight === 'number' ? p.weight : 0,
      },
    ];
  });
}

function triggersFrom(v: unknown): NLPTriggersConfig {
  if (!isRecord(v) || !Array.isArray(v.triggers)) return DEFAULT_NLP_TRIGGERS;
  const triggers: PropertyTriggerConfig[] = v.triggers
    .filter(isRecord)
    .flatMap((t) =>
      typeof t.propertyId === 'string' && typeof t.trigger === 'string' && t.trigger !== ''
        ? [{ propertyId: t.propertyId, trigger: t.trigger, enabled: t.enabled !== false }]
        : [],
    );
  return { triggers };
}

export function userFieldsFrom(v: unknown): UserMappedField[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isRecord).flatMap((f) => {
    if (typeof f.id !== 'string' || typeof f.key !== 'string' || f.key === '') return [];
    const type = USER_FIELD_TYPES.has(f.type as string) ? (f.type as UserMappedField['type']) : 'text';
    return [{ id: f.id, key: f.key, displayName: str(f.displayName, f.key), type }];
  });
}

/** The host's locale stands in for the browser's `navigator.language` of the reference. */
function systemLocale(): string {
  return Intl.DateTimeFormat().resolvedOptions().locale;
}

/** Reads the parser configuration from effective TaskNotes settings (plugin key names). */
export function nlpSettingsFrom(raw: object): NlpSettings {
  const s = raw as Raw;
  const language = str(s.nlpLanguage, 'en');
  const calendarLocale = isRecord(s.calendarViewSettings) ? s.calendarViewSettings.locale : undefined;
  return {
    statuses: statusesFrom(s.customStatuses),
    priorities: prioritiesFrom(s.customPriorities),
    defaultTaskStatus: str(s.defaultTaskStatus, 'open'),
    defaultTaskPriority: str(s.defaultTaskPriority, 'normal'),
    defaultToScheduled: s.nlpDefaultToScheduled !== false,
    language,
    triggers: triggersFrom(s.nlpTriggers),
    userFields: userFieldsFrom(s.userFields),
    dateLocale: str(calendarLocale, systemLocale() || language),
  };
}
