/**
 * Frontmatter changes made on the parsed YAML Document, which is then printed whole: the fallback
 * for what a text edit (frontmatter-edit.ts) cannot do. Comments and key order survive; the text
 * of untouched values is the library's, not the user's.
 */
import { isMap, isScalar, visit, type Document, type Node } from 'yaml';
import { keyOf, setScalarValue, YAML_OUT, type FrontmatterChanges } from './frontmatter-edit.js';

/** How many times the frontmatter mapping has `key`. */
function countKey(doc: Document, key: string): number {
  return isMap(doc.contents) ? doc.contents.items.filter((pair) => keyOf(pair) === key).length : 0;
}

/**
 * Deletes a key; a comment written above it moves to the next key (or the end of the document),
 * so removing `title:` does not take a file's leading comment with it.
 */
function deleteKeepingComments(doc: Document, key: string): void {
  const map = doc.contents;
  if (!isMap(map)) return;
  const index = map.items.findIndex((pair) => keyOf(pair) === key);
  if (index < 0) return;
  const pair = map.items[index]!;
  const comment = isScalar(pair.key) ? pair.key.commentBefore : undefined;
  map.items.splice(index, 1);
  if (!comment) return;
  const next = map.items[index];
  if (next && isScalar(next.key)) {
    next.key.commentBefore = next.key.commentBefore ? `${comment}\n${next.key.commentBefore}` : comment;
  } else if (index === 0) {
    doc.commentBefore = doc.commentBefore ? `${doc.commentBefore}\n${comment}` : comment;
  } else {
    doc.comment = doc.comment ? `${doc.comment}\n${comment}` : comment;
  }
}

/**
 * Replaces each alias of an anchor set inside the values of `keys` by a copy of what it names, so
 * changing or deleting the anchored value leaves the keys that referred to it as they read.
 */
function inlineAliasesInto(doc: Document, keys: ReadonlySet<string>): void {
  const map = doc.contents;
  if (!isMap(map)) return;
  const anchors = new Set<string>();
  for (const pair of map.items) {
    if (!keys.has(keyOf(pair) as string) || !pair.value) continue;
    visit(pair.value as Node, {
      Node: (_key, node) => {
        if ('anchor' in node && node.anchor) anchors.add(node.anchor);
      },
    });
  }
  if (anchors.size === 0) return;
  visit(doc, {
    Alias: (_key, alias) => {
      if (!anchors.has(alias.source)) return undefined;
      const copy = (alias.resolve(doc) as Node).clone() as Node;
      visit(copy, {
        Node: (_k, node) => {
          if ('anchor' in node) node.anchor = undefined;
        },
      });
      if ('anchor' in copy) copy.anchor = undefined;
      return copy;
    },
  });
}

/**
 * `doc` (changed in place) with `changes` made, printed. With `keepStyle`, a changed scalar keeps
 * its node, so its quoting and trailing comment stay; without, every changed key gets a new node
 * (the last resort, for a style that cannot hold the new value, such as a block scalar holding
 * only spaces).
 */
export function reprintFrontmatter(doc: Document, changes: FrontmatterChanges, keepStyle: boolean): string {
  if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as typeof doc.contents;
  inlineAliasesInto(doc, new Set(changes.map(([key]) => key)));
  for (const [key, value] of changes) {
    // A key written twice reads as its last value (parseNote): the shadowed earlier ones go, or
    // the change would land on the first and never be read (nor would a deletion).
    while (countKey(doc, key) > 1) deleteKeepingComments(doc, key);
    if (value === undefined) {
      deleteKeepingComments(doc, key);
      continue;
    }
    const map = doc.contents as { items: Array<{ key: unknown; value: unknown }> };
    const pair = map.items.find((item) => keyOf(item as never) === key);
    const existing = pair?.value;
    if (keepStyle && isScalar(existing) && value !== null && typeof value !== 'object') {
      setScalarValue(existing, value);
    } else if (pair) pair.value = doc.createNode(value);
    else doc.set(key, doc.createNode(value));
  }
  return doc.toString(YAML_OUT);
}
