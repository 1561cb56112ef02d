import { promises as fs } from 'node:fs';
import type * as Yaml from 'yaml';
import {
  MAX_SKILL_DESCRIPTION_CHARS,
  MAX_SKILL_FILE_BYTES,
  MAX_SKILL_NAME_CHARS,
  sanitizeSkillName,
} from '../../core/skills';

/** A `SKILL.md` read and checked: its front matter's two fields and its body, or why it is not a skill. */
export type SkillFile = { ok: true; name: string; description: string; body: string } | { ok: false; reason: string };

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n([\s\S]*))?$/;

/** `yaml` is loaded only when there is a skill to read; most runs have none. */
let yaml: Promise<typeof Yaml> | undefined;
const loadYaml = () => (yaml ??= import('yaml'));

/** Reads `file` (a real path) as a skill; a file that cannot be one says why, in words for a warning. */
export async function readSkillFile(file: string): Promise<SkillFile> {
  try {
    const size = (await fs.stat(file)).size;
    if (size > MAX_SKILL_FILE_BYTES)
      return { ok: false, reason: `it is ${size} bytes, over the limit of ${MAX_SKILL_FILE_BYTES}` };
    return parseSkillText(await fs.readFile(file, 'utf8'));
  } catch (err) {
    return { ok: false, reason: `it cannot be read: ${(err as Error).message}` };
  }
}

/** The text of a `SKILL.md`: YAML front matter with `name` and `description`, then the instructions. */
export async function parseSkillText(text: string): Promise<SkillFile> {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { ok: false, reason: 'it does not start with YAML front matter between "---" lines' };
  let fields: unknown;
  try {
    fields = (await loadYaml()).parse(match[1] ?? '');
  } catch (err) {
    return { ok: false, reason: `its front matter is not valid YAML: ${(err as Error).message.split('\n')[0]}` };
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
    return { ok: false, reason: 'its front matter must be "key: value" lines with name and description' };
  const { name, description } = fields as Record<string, unknown>;
  const problem =
    fieldProblem('name', name, MAX_SKILL_NAME_CHARS) ??
    fieldProblem('description', description, MAX_SKILL_DESCRIPTION_CHARS);
  if (problem) return { ok: false, reason: problem };
  return {
    ok: true,
    name: sanitizeSkillName((name as string).trim()),
    description: (description as string).trim().replace(/\s+/g, ' '),
    body: (match[2] ?? '').trim(),
  };
}

function fieldProblem(key: string, value: unknown, max: number): string | undefined {
  if (value === undefined || value === null) return `its front matter has no ${key}`;
  if (typeof value !== 'string' || value.trim() === '') return `its ${key} must be a non-empty string`;
  if (value.trim().length > max) return `its ${key} is ${value.trim().length} characters, over the limit of ${max}`;
  return undefined;
}
