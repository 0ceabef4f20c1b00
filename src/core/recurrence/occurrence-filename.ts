/**
 * Filenames of materialized occurrence notes from an occurrence filename template (the parent's
 * `occurrenceFilenameTemplate` property, else the setting). Besides the task variables the
 * template can use the occurrence's own date at several granularities, so that e.g.
 * `{{title}} {{occurrenceWeek}}` gives one note per week.
 */
import { dayToDate } from './day.js';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** ISO 8601 week of a day, `YYYY-Www` (the week-numbering year can differ from the day's). */
export function isoWeek(day: string): string {
  const date = dayToDate(day);
  const weekday = (date.getUTCDay() + 6) % 7; // Monday = 0
  // The Thursday of this week decides the week-numbering year.
  const thursday = new Date(date.getTime() + (3 - weekday) * 86_400_000);
  const year = thursday.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(year, 0, 4));
  const firstWeekStart = firstThursday.getTime() - ((firstThursday.getUTCDay() + 6) % 7) * 86_400_000;
  const week = 1 + Math.floor((thursday.getTime() - firstWeekStart) / (7 * 86_400_000));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

export function occurrenceVariables(day: string): Record<string, string> {
  return {
    occurrenceDate: day,
    occurrenceWeek: isoWeek(day),
    occurrenceMonth: day.slice(0, 7),
    occurrenceYear: day.slice(0, 4),
    occurrenceMonthName: MONTHS[Number(day.slice(5, 7)) - 1] ?? '',
  };
}

export interface OccurrenceNameContext {
  title: string;
  priority?: string;
  status?: string;
}

/**
 * Renders `{{name}}` (or legacy `{name}`) variables; unknown variables become empty. The result
 * is a raw name: the caller makes it filename-safe and unique.
 */
export function renderOccurrenceName(template: string, ctx: OccurrenceNameContext, day: string): string {
  const kebab = ctx.title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const vars: Record<string, string> = {
    title: ctx.title,
    titleLower: ctx.title.toLowerCase(),
    titleUpper: ctx.title.toUpperCase(),
    titleKebab: kebab,
    titleSnake: kebab.replaceAll('-', '_'),
    priority: ctx.priority ?? '',
    status: ctx.status ?? '',
    ...occurrenceVariables(day),
  };
  return template.replace(
    /\{\{\s*(\w+)\s*\}\}|\{(\w+)\}/g,
    (_m, a: string | undefined, b: string | undefined) => {
      const name = a ?? b ?? '';
      return Object.hasOwn(vars, name) ? (vars[name] ?? '') : '';
    },
  );
}
