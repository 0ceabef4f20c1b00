/**
 * Archiving (tasknotes-spec §5.12). Taskdown archives by tag, as TaskNotes does: the archive tag
 * is added to `tags` (once) and the task stays where it is — archive never deletes. The `delete`
 * mode exists for collections configured to drop archived tasks.
 */
export type ArchiveMode = 'tag' | 'delete';

export type ArchiveOutcome = { deleted: true } | { deleted: false; frontmatter: Record<string, unknown> };

/** A `tags` value as a list of its string entries (a scalar counts as one). */
function tagList(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  return list.filter((t) => t !== null && typeof t !== 'object').map((t) => String(t));
}

export function archiveTask(
  frontmatter: Record<string, unknown>,
  mode: ArchiveMode,
  archiveTag = 'archived',
): ArchiveOutcome {
  if (mode === 'delete') return { deleted: true };
  const tags = tagList(frontmatter.tags);
  return {
    deleted: false,
    frontmatter: { ...frontmatter, tags: tags.includes(archiveTag) ? tags : [...tags, archiveTag] },
  };
}

/** Unarchiving: the archive tag removed from `tags`, every other tag kept as written. */
export function unarchiveTask(
  frontmatter: Record<string, unknown>,
  archiveTag = 'archived',
): Record<string, unknown> {
  return { ...frontmatter, tags: tagList(frontmatter.tags).filter((t) => t !== archiveTag) };
}
