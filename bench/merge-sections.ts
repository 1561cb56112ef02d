/**
 * `--only` runs measure a few sections: the report they write replaces those sections of docs/benchmarks.md and
 * keeps every other one (a section is a `## ` heading and what follows up to the next one).
 */

/** The `## ` headings of sections that stand alone in the report, by the `--only` name that measures them. */
export const OWN_HEADINGS: Record<string, string> = {
  'side-by-side': '## Side by side with Gemini CLI',
  cold: '## Cold run beside Gemini CLI',
  checkpoints: '## Workspace checkpoints',
};

interface Section {
  heading: string;
  lines: string[];
}

function sections(text: string): { head: string[]; sections: Section[] } {
  const head: string[] = [];
  const out: Section[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) out.push({ heading: line, lines: [line] });
    else (out.at(-1)?.lines ?? head).push(line);
  }
  return { head, sections: out };
}

/**
 * `existing` with each section whose heading starts with one of `headings` replaced by the same section of
 * `fresh` (appended when `existing` lacks it). Throws when `fresh` lacks one: nothing is lost silently.
 */
export function mergeSections(existing: string, fresh: string, headings: string[]): string {
  const old = sections(existing);
  const { sections: now } = sections(fresh);
  for (const heading of headings) {
    const section = now.find((s) => s.heading.startsWith(heading));
    if (!section) throw new Error(`the report has no section "${heading}" to merge`);
    const lines = [...section.lines];
    while (lines.length > 1 && lines.at(-1) === '') lines.pop();
    lines.push('');
    const at = old.sections.findIndex((s) => s.heading.startsWith(heading));
    if (at >= 0) old.sections[at] = { heading: section.heading, lines };
    else old.sections.push({ heading: section.heading, lines });
  }
  const text = [...old.head, ...old.sections.flatMap((s) => s.lines)].join('\n');
  return text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * The headings an `--only` run replaces in an existing report, or undefined when it writes the whole report: all
 * sections run, or one that shares the "durable-agent alone" table with others.
 */
export function mergedHeadings(only: readonly string[], all: readonly string[]): string[] | undefined {
  if (only.length >= all.length || !only.every((s) => s in OWN_HEADINGS)) return undefined;
  return only.map((s) => OWN_HEADINGS[s]);
}
