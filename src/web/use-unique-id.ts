/**
 * A DOM id unique on the page for the component's lifetime. Preact's `useId` derives ids from
 * the tree position and gave two mounted components the same id (a dialog and a form field),
 * which breaks `aria-labelledby`; a counter cannot collide in this client-only page.
 */
import { useState } from 'preact/hooks';

let counter = 0;

export function useUniqueId(prefix = 'id'): string {
  const [id] = useState(() => `${prefix}-${++counter}`);
  return id;
}
