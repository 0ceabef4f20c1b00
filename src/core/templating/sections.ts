/**
 * A task template note (tasknotes-spec §9.14, templating profile): optional `---` frontmatter
 * followed by the body. The frontmatter stays raw text here because its values may contain
 * `{{variables}}` that must be expanded before the YAML is parsed.
 */
const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export interface TemplateSections {
  frontmatterRaw: string;
  body: string;
}

export function splitTemplate(text: string): TemplateSections {
  const match = FRONTMATTER.exec(text);
  if (!match) return { frontmatterRaw: '', body: text };
  return { frontmatterRaw: match[1] as string, body: text.slice(match[0].length) };
}
