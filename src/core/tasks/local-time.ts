/**
 * Local-time formats of the TaskNotes format (as in the TaskNotes plugin): `dateCreated` /
 * `dateModified` are local ISO timestamps with milliseconds and offset, `completedDate` and the
 * default `scheduled` are the local calendar date. All take epoch ms from the injected Clock.
 */
const pad = (n: number, width = 2): string => String(Math.trunc(Math.abs(n))).padStart(width, '0');

/** Local `YYYY-MM-DD`. */
export function localDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Local `YYYY-MM-DDTHH:mm:ss.SSS±HH:MM`, e.g. `2025-12-31T15:36:19.393+11:00`. */
export function localIsoTimestamp(ms: number): string {
  const d = new Date(ms);
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return (
    `${localDate(ms)}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}` +
    `${sign}${pad(offset / 60)}:${pad(offset % 60)}`
  );
}

/**
 * The `DTSTART:` part for a rule anchored at a task date: `DTSTART:YYYYMMDD` for a date, and for a
 * local wall-clock datetime its real UTC instant `DTSTART:YYYYMMDDTHHMMSSZ` (docs/api-decisions.md; the
 * plugin's local digits with a `Z`).
 */
export function dtstartFor(anchor: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(anchor);
  if (!m) return undefined;
  if (m[4] === undefined) return `DTSTART:${m[1]}${m[2]}${m[3]}`;
  const local = new Date(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6] ?? 0),
  );
  const iso = local.toISOString();
  return `DTSTART:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

/** Prepends a DTSTART built from `anchor` to a rule that has none; otherwise returns the rule. */
export function withDtstart(rule: string, anchor: string | undefined): string {
  const body = rule.replace(/^RRULE:/i, '');
  if (/DTSTART[:;]/i.test(body) || anchor === undefined) return body;
  const dtstart = dtstartFor(anchor);
  return dtstart ? `${dtstart};${body}` : body;
}
