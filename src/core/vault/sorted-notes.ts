/**
 * The index's notes in path order (`VaultStore.all()`), kept between changes. A replaced note
 * takes its predecessor's place at once; notes added or removed are recorded and applied on the
 * next read, in place: each found by binary search, the stretches between them moved once. At
 * 100,000 notes a read after 60 additions costs about 0.15 ms, where sorting the nearly sorted list
 * again took 11.5 ms (it compares every neighbouring pair of paths) and merging into a new array
 * 8–13 ms (a 100,000-entry array per read for the collector); a client asking for the task list
 * every 20 ms during a burst of 5,000 new notes had kept the server re-sorting for 29 % of the
 * burst's CPU (docs/performance.md).
 */
export class SortedNotes<R extends { rel: string }> {
  private sorted: R[] | undefined;
  /** Paths added or removed since `sorted` was made (a path can be in both: removed, then added). */
  private readonly added = new Set<string>();
  private readonly removed = new Set<string>();

  /**
   * @param current the record a path has now, if any
   * @param everything every record, for the first read after a reset
   */
  constructor(
    private readonly current: (rel: string) => R | undefined,
    private readonly everything: () => Iterable<R>,
  ) {}

  /** Forgets the list (a scan replaced the index): the next read sorts everything. */
  reset(): void {
    this.sorted = undefined;
    this.added.clear();
    this.removed.clear();
  }

  /**
   * A note's record was replaced by `record`. A path added since the last read is not in the list
   * yet (the next read puts its current record in); one removed and added again holds its old
   * place until the next read drops it.
   */
  replace(rel: string, record: R): void {
    if (this.sorted === undefined) return;
    const i = lowerBound(this.sorted, rel);
    if (this.sorted[i]?.rel === rel) this.sorted[i] = record;
  }

  add(rel: string): void {
    if (this.sorted !== undefined) this.added.add(rel);
  }

  remove(rel: string): void {
    if (this.sorted === undefined) return;
    this.added.delete(rel);
    this.removed.add(rel);
  }

  /**
   * The notes in path order. The list is changed in place by later changes (no copy of 100,000
   * entries per read): callers use it at once and do not keep it, nor change it.
   */
  list(): readonly R[] {
    if (this.sorted === undefined) {
      this.sorted = [...this.everything()].sort(byRel);
    } else {
      if (this.removed.size > 0) this.drop(this.sorted);
      if (this.added.size > 0) this.insert(this.sorted);
    }
    this.added.clear();
    this.removed.clear();
    return this.sorted;
  }

  /** The records whose path starts with `prefix`, in path order: one stretch of `list()`. */
  withPrefix(prefix: string): R[] {
    const sorted = this.list();
    const from = lowerBound(sorted, prefix);
    let to = from;
    while (to < sorted.length && sorted[to]!.rel.startsWith(prefix)) to++;
    return sorted.slice(from, to);
  }

  /** Removes the entries of the removed paths, moving each stretch between them down once. */
  private drop(sorted: R[]): void {
    const drops: number[] = [];
    for (const rel of this.removed) {
      const i = lowerBound(sorted, rel);
      if (sorted[i]?.rel === rel) drops.push(i);
    }
    if (drops.length === 0) return;
    drops.sort((a, b) => a - b);
    let write = drops[0]!;
    for (let d = 0; d < drops.length; d++) {
      const from = drops[d]! + 1;
      const to = d + 1 < drops.length ? drops[d + 1]! : sorted.length;
      move(sorted, write, from, to);
      write += to - from;
    }
    sorted.length = write;
  }

  /**
   * Puts the added paths' records in place: appended first (the array stays packed), then, from
   * the last addition back, each stretch of the list after an addition's place moved up once.
   */
  private insert(sorted: R[]): void {
    const additions: R[] = [];
    for (const rel of this.added) {
      const record = this.current(rel);
      if (record !== undefined) additions.push(record);
    }
    additions.sort(byRel);
    let end = sorted.length;
    for (const record of additions) sorted.push(record);
    for (let j = additions.length - 1; j >= 0; j--) {
      const record = additions[j]!;
      const at = lowerBound(sorted, record.rel, 0, end);
      move(sorted, at + j + 1, at, end);
      sorted[at + j] = record;
      end = at;
    }
  }
}

const byRel = (a: { rel: string }, b: { rel: string }): number => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0);

/**
 * Copies `list[from..to)` to start at `target` (overlapping ranges allowed), as `copyWithin`
 * does. V8's `copyWithin` is the generic algorithm (a property lookup per element): moving
 * 100,000 entries took 2.9–3.1 ms with it and 0.10–0.15 ms with this loop, on Node 20 and 24.
 */
function move<T>(list: T[], target: number, from: number, to: number): void {
  const shift = target - from;
  if (shift > 0) for (let k = to - 1; k >= from; k--) list[k + shift] = list[k]!;
  else if (shift < 0) for (let k = from; k < to; k++) list[k + shift] = list[k]!;
}

/** The first index of `sorted` in [lo, hi) whose path is not before `rel`; `hi` if none. */
function lowerBound(sorted: readonly { rel: string }[], rel: string, lo = 0, hi = sorted.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.rel < rel) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
