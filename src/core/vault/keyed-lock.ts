/**
 * Serializes async work per key (a note path, a state file). Work for different keys runs in
 * parallel; work for one key runs in call order, so read-modify-write sequences on one note
 * never interleave and no update is lost.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    this.inFlight++;
    const result = previous.then(work, work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
      if (--this.inFlight === 0) {
        for (const wake of this.idleWaiters.splice(0)) wake();
      }
    });
    return result;
  }

  /** Resolves when no work is queued or running (used on shutdown to finish in-flight writes). */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
