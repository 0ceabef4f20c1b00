/**
 * ISO 8601 durations as TaskNotes stores them: reminder offsets (`-PT15M`, `P1D`) and dependency
 * gaps (`PT4H`, `P2W`). A leading `-` means "before"; the spec's values never carry `+`, so a plus
 * sign is rejected rather than guessed at.
 */
export interface IsoDuration {
  /** -1 for a leading minus sign, else 1. */
  sign: 1 | -1;
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

const NUM = '(\\d+(?:[.,]\\d+)?)';
const DURATION = new RegExp(
  `^(-)?P(?:${NUM}Y)?(?:${NUM}M)?(?:${NUM}W)?(?:${NUM}D)?(?:T(?:${NUM}H)?(?:${NUM}M)?(?:${NUM}S)?)?$`,
);

/** Parses a duration; null when the text is not a valid ISO 8601 duration. */
export function parseIsoDuration(text: string): IsoDuration | null {
  if (typeof text !== 'string') return null;
  const value = text.trim();
  const match = DURATION.exec(value);
  if (!match) return null;
  const parts = match.slice(2).map((p) => (p === undefined ? undefined : Number(p.replace(',', '.'))));
  // "P" alone, and a "T" with nothing after it, name no duration.
  if (parts.every((p) => p === undefined)) return null;
  if (value.includes('T') && parts.slice(4).every((p) => p === undefined)) return null;
  const [years, months, weeks, days, hours, minutes, seconds] = parts.map((p) => p ?? 0) as number[];
  return {
    sign: match[1] ? -1 : 1,
    years: years as number,
    months: months as number,
    weeks: weeks as number,
    days: days as number,
    hours: hours as number,
    minutes: minutes as number,
    seconds: seconds as number,
  };
}

export function isIsoDuration(text: unknown): boolean {
  return typeof text === 'string' && parseIsoDuration(text) !== null;
}

/**
 * Adds a duration to an instant. Calendar parts (years, months, weeks, days) move the local
 * calendar (so "P1D" across a DST change keeps the wall-clock time); clock parts add exact time.
 */
export function addDuration(instant: Date, duration: IsoDuration): Date {
  const s = duration.sign;
  const result = new Date(instant.getTime());
  result.setFullYear(
    result.getFullYear() + s * duration.years,
    result.getMonth() + s * duration.months,
    result.getDate() + s * (duration.weeks * 7 + duration.days),
  );
  const clockMs = (duration.hours * 3600 + duration.minutes * 60 + duration.seconds) * 1000;
  return new Date(result.getTime() + s * clockMs);
}
