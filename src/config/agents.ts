import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type * as Yaml from 'yaml';
import { isBuiltinAgentName } from '../core/agents/builtins';
import {
  AgentDefinitionError,
  isMcpToolPattern,
  parseAgentDefinition,
  type AgentDefinition,
} from '../core/agents/definition';
import { toolNames } from '../tools';
import { ConfigFileError } from './errors';

/**
 * Reads user-defined sub-agents at the process edge (invariant 9); they go into the workflow as data.
 *
 * Where: every `*.md` file in `$DURABLE_AGENT_HOME/agents` (user) and `<workspace>/.durable-agent/agents`
 * (workspace); names starting with `_` are skipped. A workspace agent replaces a user agent of the same
 * name (with a warning); two files of one folder may not define the same name, and no file may reuse
 * a built-in agent's name (`codebase_investigator`, `generalist`).
 *
 * Format: YAML front matter between `---` lines, then the Markdown body, which is the system prompt.
 *
 *     ---
 *     name: security_reviewer          # required: ^[a-z][a-z0-9_]*$, what invoke_agent's agent_name takes
 *     description: Reviews a change for security problems.   # required: shown to the main model
 *     tools: [read_file, grep_search]  # optional list of tool names; absent: all of the main agent's
 *                                      #   tools except invoke_agent. No wildcards.
 *     model: gemini-2.5-pro            # optional; absent or "inherit": the main agent's model
 *     temperature: 0.2                 # optional, 0 to 2
 *     max_turns: 30                    # optional, default 30
 *     timeout_mins: 10                 # optional, default 10 (also accepted as max_minutes)
 *     recovery_grace_seconds: 60       # optional, default 60: the final warning turn's time
 *     output_schema:                   # optional JSON Schema (type object) of complete_task's arguments;
 *       type: object                   #   default: { result: non-empty string }
 *       properties:
 *         verdict: { type: string, enum: [ok, needs_changes] }
 *         findings: { type: array, items: { type: string } }
 *       required: [verdict, findings]
 *     ---
 *     You are a security reviewer. ...
 *
 * `kind: local` and `display_name` (Gemini CLI's) are accepted; the latter is ignored with a warning.
 * Anything else (`mcp_servers`, `policy`, remote agents, unknown keys) stops the CLI with an
 * `AgentFileError` naming the file and the field (exit code 52).
 */

export interface AgentDirs {
  /** `$DURABLE_AGENT_HOME/agents`. */
  userDir?: string;
  /** `<workspace>/.durable-agent/agents`: overrides the user folder. */
  workspaceDir?: string;
  /** Names a `tools` list may use; default: the main agent's tools. */
  knownTools?: readonly string[];
}

export interface LoadedAgents {
  /** User-defined agents only (add the built-ins yourself), user ones first, in file-name order. */
  agents: AgentDefinition[];
  /** Things accepted but not used, and overrides, one line each, naming the file. */
  warnings: string[];
}

export class AgentFileError extends ConfigFileError {
  override name = 'AgentFileError';

  constructor(
    readonly file: string,
    readonly field: string | undefined,
    readonly problem: string,
  ) {
    super('agentFile', `${file}: ${field === undefined ? '' : `${field}: `}${problem}`);
  }
}

/** Front-matter key → definition field. Both time keys mean the same thing. */
const KEY_TO_FIELD: Readonly<Record<string, string>> = {
  name: 'name',
  description: 'description',
  tools: 'tools',
  model: 'model',
  temperature: 'temperature',
  max_turns: 'maxTurns',
  timeout_mins: 'maxMinutes',
  max_minutes: 'maxMinutes',
  recovery_grace_seconds: 'recoveryGraceSeconds',
  output_schema: 'outputSchema',
};
const UNSUPPORTED = ['mcp_servers', 'policy', 'agent_card_url', 'auth'];
/** `yaml` (72 modules) is loaded only when there is an agent file to read; most runs have none. */
let yaml: Promise<typeof Yaml> | undefined;
const loadYaml = () => (yaml ??= import('yaml'));

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n([\s\S]*))?$/;

export async function loadAgentFiles(dirs: AgentDirs): Promise<LoadedAgents> {
  const known = dirs.knownTools ?? toolNames;
  const warnings: string[] = [];
  const byName = new Map<string, { agent: AgentDefinition; file: string }>();
  for (const dir of [dirs.userDir, dirs.workspaceDir]) {
    const seenHere = new Map<string, string>();
    for (const file of await markdownFiles(dir)) {
      const text = await fs.readFile(file, 'utf8').catch((err: Error) => {
        throw new AgentFileError(file, undefined, `cannot be read: ${err.message}`);
      });
      const parsed = await parseAgentFile(text, file, known);
      warnings.push(...parsed.warnings);
      const { name } = parsed.agent;
      const twin = seenHere.get(name);
      if (twin) throw new AgentFileError(file, 'name', `agent "${name}" is already defined by ${twin}`);
      seenHere.set(name, file);
      const overridden = byName.get(name);
      if (overridden) warnings.push(`${file}: agent "${name}" overrides the one in ${overridden.file}`);
      byName.set(name, { agent: parsed.agent, file });
    }
  }
  return { agents: [...byName.values()].map((entry) => entry.agent), warnings };
}

async function markdownFiles(dir: string | undefined): Promise<string[]> {
  if (!dir) return [];
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    const names = entries
      .filter((e) => e.isFile() && e.name.endsWith('.md') && !e.name.startsWith('_'))
      .map((e) => e.name);
    return names.sort().map((name) => path.join(dir, name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new AgentFileError(dir, undefined, `cannot be listed: ${(err as Error).message}`);
  }
}

/** Parses one agent file's text; `file` names it in messages. Throws `AgentFileError`. */
export async function parseAgentFile(
  text: string,
  file: string,
  knownTools: readonly string[] = toolNames,
): Promise<{ agent: AgentDefinition; warnings: string[] }> {
  const match = FRONT_MATTER.exec(text);
  if (!match)
    throw new AgentFileError(
      file,
      undefined,
      'must start with YAML front matter between "---" lines (name, description, ...)',
    );
  const frontMatter = readFrontMatter(match[1] ?? '', file, (await loadYaml()).parse);
  const warnings: string[] = [];
  const raw: Record<string, unknown> = { systemPrompt: (match[2] ?? '').trim() };
  for (const [key, value] of Object.entries(frontMatter)) {
    const field = KEY_TO_FIELD[key];
    if (field !== undefined) raw[field] = value;
    else if (key === 'display_name') warnings.push(`${file}: display_name is not used; ignored`);
    else if (key === 'kind') {
      if (value !== 'local')
        throw new AgentFileError(file, 'kind', 'only local agents are supported (remote agents are not)');
    } else if (UNSUPPORTED.includes(key)) throw new AgentFileError(file, key, 'is not supported by durable-agent');
    else
      throw new AgentFileError(
        file,
        key,
        `unknown field (known: ${[...Object.keys(KEY_TO_FIELD), 'display_name', 'kind'].join(', ')})`,
      );
  }
  if ('timeout_mins' in frontMatter && 'max_minutes' in frontMatter) {
    throw new AgentFileError(file, 'timeout_mins', 'give timeout_mins or max_minutes, not both');
  }
  if (raw.model === 'inherit') delete raw.model;
  const agent = toDefinition(raw, file, frontMatter);
  if (isBuiltinAgentName(agent.name))
    throw new AgentFileError(file, 'name', `"${agent.name}" is a built-in agent; choose another name`);
  const unknown = (agent.tools ?? []).filter((name) => !isMcpToolPattern(name) && !knownTools.includes(name));
  if (unknown.length > 0)
    throw new AgentFileError(file, 'tools', `unknown tool ${unknown.join(', ')} (known: ${knownTools.join(', ')})`);
  return { agent, warnings };
}

function readFrontMatter(source: string, file: string, parseYaml: typeof Yaml.parse): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseYaml(source);
  } catch (err) {
    throw new AgentFileError(file, undefined, `invalid YAML front matter: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AgentFileError(file, undefined, 'front matter must be a set of "key: value" lines');
  }
  return value as Record<string, unknown>;
}

/** Validates through the shared definition schema, naming fields as the file spells them. */
function toDefinition(
  raw: Record<string, unknown>,
  file: string,
  frontMatter: Record<string, unknown>,
): AgentDefinition {
  try {
    return parseAgentDefinition(raw, file);
  } catch (err) {
    if (!(err instanceof AgentDefinitionError)) throw err;
    const [first, ...others] = err.issues.map((issue) => ({ ...issue, field: fileField(issue.field, frontMatter) }));
    const problem = [first.problem, ...others.map((issue) => `${issue.field}: ${issue.problem}`)].join('; ');
    throw new AgentFileError(file, first.field, problem);
  }
}

function fileField(field: string, frontMatter: Record<string, unknown>): string {
  const [head, ...rest] = field.split('.');
  if (head === 'systemPrompt') return 'body (system prompt)';
  const keys = Object.keys(KEY_TO_FIELD).filter((key) => KEY_TO_FIELD[key] === head);
  const key = keys.find((k) => k in frontMatter) ?? keys[0] ?? head;
  return [key, ...rest].join('.');
}
