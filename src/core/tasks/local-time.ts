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
