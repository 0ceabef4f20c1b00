/**
 * Text a client sends must be Unicode: a JSON string may hold an unpaired UTF-16 surrogate
 * (`"\ud801"`), which no file can: written to a note or made into its file name, it becomes
 * U+FFFD on disk while the index keeps the surrogate, and the task answered is one no read finds
 * again (its id is no path on disk). Such input is refused, nothing written.
 */

/** Whether a string in `value` (keys included) is not well-formed Unicode; walked without recursion. */
export function hasUnpairedSurrogate(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (!current.isWellFormed()) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
    } else if (current !== null && typeof current === 'object') {
      // for…in over a parsed body's own keys, no entry arrays: 40,000 keys 98-225 → 29-37 ms
      // (4 runs each, Node 20.20, a standalone loop).
      for (const key in current) {
        if (!key.isWellFormed()) return true;
        stack.push((current as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

export const NOT_UNICODE =
  'Text must be valid Unicode (it holds an unpaired UTF-16 surrogate, such as \\ud801)';
