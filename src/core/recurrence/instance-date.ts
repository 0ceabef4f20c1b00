/**
 * Reading the `date` of the recurring routes. complete-instance takes any ISO 8601 date or
 * date-time (as in the TaskNotes plugin) and acts on the calendar day written in it; materialize, skip and
 * unskip take `YYYY-MM-DD`, a date-time being cut to its date part (as in the TaskNotes plugin). Unlike the
 * reference, an unparseable value is a 400, never an empty date.
 */
import { invalid } from '../errors.js';
import { isDay } from './day.js';

export const DATE_REQUIRED = 'Date is required';

const invalidDate = (value: string): Error => invalid(`Invalid date "${value}". Expected YYYY-MM-DD.`);

/** The instance day of a required `date` (materialize, skip, unskip). */
export function requiredDay(value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw invalid(DATE_REQUIRED);
  const day = value.trim().slice(0, 10);
  if (!isDay(day) || Number.isNaN(new Date(value.trim()).getTime())) throw invalidDate(value);
  return day;
}

/** The day and the instant of complete-instance's optional `date`. */
export function requestedInstant(value: string): { day: string; targetDate: string } {
  const day = requiredDay(value);
  return { day, targetDate: new Date(value.trim()).toISOString() };
}
