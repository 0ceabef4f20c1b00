/**
 * Archiving (tasknotes-spec §5.12). Taskdown archives by tag, as TaskNotes does: the archive tag
 * is added to `tags` (once) and the task stays where it is — archive never deletes. The `delete`
 * mode exists for collections configured to drop archived tasks.
 */
export type ArchiveMode = 'tag' | 'delete';

export type ArchiveOutcome = { deleted: true } | { deleted: false; frontmatter: Record<string, unknown> };

export function archiveTask(
  frontmatter: Record<string, unknown>,
  mode: ArchiveMode,
  archiveTag = 'archived',
): ArchiveOutcome {
  if (mode === 'delete') return { deleted: true };
  const raw = frontmatter.tags;
  const tags = (Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : []).filter(
    (t): t is string => typeof t === 'string',
  );
  return {
    deleted: false,
    frontmatter: { ...frontmatter, tags: tags.includes(archiveTag) ? tags : [...tags, archiveTag] },
  };
}
