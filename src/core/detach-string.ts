/**
 * A copy of `s` that keeps nothing else alive. V8 represents a substring of 13 or more characters
 * as a slice that references the whole string it was cut from, so a date cut out of a note's
 * frontmatter would keep the entire note text in memory for as long as the index holds the date
 * (on the 10,000-note bench vault: 13 MB of parsed notes instead of 6 MB). A JSON round trip
 * makes a flat string of its own (JSON.stringify escapes lone surrogates, so it is exact). The
 * copy made before, concatenating a character and slicing it off again, was itself a slice over a
 * fresh string: two objects per value instead of one, 11–14 MB of RSS at the first answer of a
 * first start of the 100,000-task bench vault (docs/performance.md).
 */
export function detachString(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}
