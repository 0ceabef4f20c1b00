/** date.* — temporal parsing and comparison (spec §3) over src/core/dates. */
import { localDay, utcDay } from '../../core/dates/calendar.js';
import { resolveOperationTargetDate } from '../../core/dates/operation-target.js';
import { parseDateToLocal, parseDateToUTC, validateDateString } from '../../core/dates/parse.js';
import { getDatePart, hasTimeComponent, isBeforeDay, isSameDay } from '../../core/dates/parts.js';
import { dayInTimezone } from '../../core/dates/timezone.js';
import { attempt } from '../envelope.js';
import { optString, record, str } from '../input.js';
import type { OpTable } from '../types.js';

const valueOf = (input: unknown): string => str(record(input).value);

export const dateOps: OpTable = {
  'date.parse_utc': (input) =>
    attempt(() => {
      const parsed = parseDateToUTC(valueOf(input));
      return { date: utcDay(parsed), isoDate: utcDay(parsed) };
    }),
  'date.parse_local': (input) =>
    attempt(() => {
      const parsed = parseDateToLocal(valueOf(input));
      return { localDate: localDay(parsed), isoDate: utcDay(parsed) };
    }),
  'date.validate': (input) => attempt(() => ({ value: validateDateString(valueOf(input)) })),
  'date.get_part': (input) => attempt(() => ({ value: getDatePart(valueOf(input)) })),
  'date.has_time': (input) => attempt(() => ({ value: hasTimeComponent(valueOf(input)) })),
  'date.is_same': (input) => {
    const { a, b } = record(input);
    return attempt(() => ({ value: isSameDay(str(a), str(b)) }));
  },
  'date.is_before': (input) => {
    const { a, b } = record(input);
    return attempt(() => ({ value: isBeforeDay(str(a), str(b)) }));
  },
  'date.resolve_operation_target': (input) => {
    const { explicitDate, scheduled, due } = record(input);
    return attempt(() => ({
      value: resolveOperationTargetDate({
        explicitDate: optString(explicitDate),
        scheduled: optString(scheduled),
        due: optString(due),
        today: localDay(new Date()),
      }),
    }));
  },
  'date.day_in_timezone': (input) => {
    const { instant, timezone } = record(input);
    return attempt(() => ({ value: dayInTimezone(str(instant), str(timezone)) }));
  },
};
