import { z } from 'zod';
import type { JsonSchema } from './json-schema-check';

/**
 * A sub-agent's definition. Plain JSON: it crosses into the workflow as data, so the
 * input and output schemas are JSON Schema objects (the subset of json-schema-check.ts), not zod.
 */
export interface AgentDefinition {
  /** What the main model passes as `agent_name`: `^[a-z][a-z0-9_]*$`. */
  name: string;
  /** Shown to the main model in `invoke_agent`'s description: when to use this agent. */
  description: string;
  systemPrompt: string;
  /** The agent's input; `invoke_agent` fills its only property, or `prompt`, with the prompt. */
  inputSchema: JsonSchema;
  /** `complete_task`'s arguments: the output object itself. */
  outputSchema: JsonSchema;
  /**
   * Tools the agent may call besides `complete_task`. Absent: every tool of the main agent except
   * `invoke_agent` (see `resolveAgentTools`). Names are checked against the registry later.
   */
  tools?: string[];
  /** Absent: the main agent's model. */
  model?: string;
  /** Absent: the model's default. */
  temperature?: number;
  /** Nucleus sampling (0 to 1). Absent: the model's default. */
  topP?: number;
  maxTurns: number;
  maxMinutes: number;
  /** How long the final warning turn (recovery turn) may take. */
  recoveryGraceSeconds: number;
}

/** Gemini CLI's run limits for an agent that sets none, and its recovery grace period. */
export const DEFAULT_MAX_TURNS = 30;
export const DEFAULT_MAX_MINUTES = 10;
export const DEFAULT_RECOVERY_GRACE_SECONDS = 60;

/** Never given to a sub-agent by name: no recursion, and `complete_task` is always added. */
export const INVOKE_AGENT = 'invoke_agent';
export const COMPLETE_TASK = 'complete_task';
/**
 * Only the main prompt asks the user, or names chapters for a person to follow (as in Gemini CLI); skills
 * are found by the main prompt and activated there.
 */
const MAIN_ONLY = ['ask_user', 'update_topic', 'activate_skill'];

export function defaultInputSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      prompt: { type: 'string', description: 'The complete task for the agent, with all the context it needs.' },
    },
    required: ['prompt'],
  };
}

/** Gemini CLI's default `complete_task` output: one non-empty `result` string. */
export function defaultOutputSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      result: { type: 'string', minLength: 1, description: 'Your final answer or report for the caller.' },
    },
    required: ['result'],
  };
}

/** Zod's own wording for a non-object is replaced; other issues keep theirs. */
const objectExpected = {
  error: (issue: { code: string }) => (issue.code === 'invalid_type' ? 'must be an object' : undefined),
};

const SCHEMA_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean'] as const;

/** The JSON Schema subset json-schema-check.ts enforces; other keywords are refused, not ignored. */
export const jsonSchemaSchema: z.ZodType<JsonSchema> = z.lazy(() =>
  z
    .strictObject(
      {
        type: z.enum(SCHEMA_TYPES, { error: `must be one of ${SCHEMA_TYPES.join(', ')}` }).optional(),
        title: z.string().optional(),
        description: z.string().optional(),
        properties: z.record(z.string(), jsonSchemaSchema).optional(),
        required: z.array(z.string()).optional(),
        additionalProperties: z.boolean({ error: 'must be true or false' }).optional(),
        items: jsonSchemaSchema.optional(),
        minItems: z.number().int().min(0).optional(),
        minLength: z.number().int().min(0).optional(),
        enum: z
          .array(z.union([z.string(), z.number(), z.boolean()]))
          .min(1)
          .optional(),
      },
      objectExpected,
    )
    .superRefine((node, ctx) => {
      for (const name of node.required ?? []) {
        if (!node.properties || !hasOwn(node.properties, name)) {
          ctx.addIssue({
            code: 'custom',
            path: ['required'],
            message: `"${name}" is required but not among properties`,
          });
        }
      }
    }),
);

const nonBlank = (what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be ${what}`) })
    .trim()
    .min(1, { error: 'must not be empty' });

const toolNameSchema = z
  .string()
  .min(1)
  .refine((name) => !name.includes('*') || (isMcpToolPattern(name) && name.indexOf('*') === name.length - 1), {
    error: 'wildcards are supported only at the end of an MCP tool name (mcp_<server>_*): list other tools by name',
  })
  .refine((name) => name !== INVOKE_AGENT, { error: 'invoke_agent cannot be given to a sub-agent (no recursion)' })
  .refine((name) => name !== COMPLETE_TASK, {
    error: 'complete_task is always available to a sub-agent: do not list it',
  });

export const agentDefinitionSchema = z
  .strictObject(
    {
      name: nonBlank('a string').regex(/^[a-z][a-z0-9_]*$/, {
        error: 'must start with a lowercase letter and hold only lowercase letters, digits and underscores',
      }),
      description: nonBlank('a string'),
      systemPrompt: nonBlank('a string'),
      inputSchema: jsonSchemaSchema.default(defaultInputSchema),
      outputSchema: jsonSchemaSchema.default(defaultOutputSchema),
      tools: z
        .array(toolNameSchema, { error: 'must be a list of tool names' })
        .refine((names) => new Set(names).size === names.length, { error: 'lists a tool twice' })
        .optional(),
      model: nonBlank('a model name').optional(),
      temperature: z.number({ error: 'must be a number from 0 to 2' }).min(0).max(2).optional(),
      topP: z.number({ error: 'must be a number from 0 to 1' }).min(0).max(1).optional(),
      maxTurns: z.number({ error: 'must be a whole number above 0' }).int().positive().default(DEFAULT_MAX_TURNS),
      maxMinutes: z.number({ error: 'must be a number of minutes above 0' }).positive().default(DEFAULT_MAX_MINUTES),
      recoveryGraceSeconds: z
        .number({ error: 'must be a number of seconds above 0' })
        .positive()
        .default(DEFAULT_RECOVERY_GRACE_SECONDS),
    },
    objectExpected,
  )
  .superRefine((agent, ctx) => {
    if (agent.outputSchema.type !== 'object') {
      ctx.addIssue({
        code: 'custom',
        path: ['outputSchema', 'type'],
        message: 'must be "object": complete_task takes the output as its arguments',
      });
    }
    const inputProblem = checkInputSchema(agent.inputSchema);
    if (inputProblem) ctx.addIssue({ code: 'custom', path: ['inputSchema'], message: inputProblem });
  });

/**
 * `invoke_agent` passes one prompt string: into the only property if there is one, else into
 * `prompt`. An input schema that cannot be filled that way is refused here rather than at call time.
 */
function checkInputSchema(schema: JsonSchema): string | undefined {
  if (schema.type !== 'object') return 'type must be "object"';
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  const target = names.length === 1 ? names[0] : 'prompt';
  const type = hasOwn(properties, target) ? properties[target].type : undefined;
  if (names.length > 1 && !hasOwn(properties, target))
    return 'with several properties, one must be "prompt" (invoke_agent fills it)';
  if (type !== undefined && type !== 'string')
    return `"${target}" must be a string: invoke_agent passes the prompt text`;
  const others = (schema.required ?? []).filter((name) => name !== target);
  if (others.length > 0)
    return `only "${target}" may be required: invoke_agent passes nothing else (${others.join(', ')})`;
  return undefined;
}

/** One problem with a definition: the field's path (`outputSchema.properties.result.type`) and what is wrong. */
export interface AgentDefinitionIssue {
  field: string;
  problem: string;
}

/** A definition that does not validate; `source` says where it came from (a file, "built-in"). */
export class AgentDefinitionError extends Error {
  override name = 'AgentDefinitionError';

  constructor(
    readonly source: string,
    readonly issues: AgentDefinitionIssue[],
  ) {
    super(`${source}: ${issues.map((issue) => `${issue.field}: ${issue.problem}`).join('; ')}`);
  }
}

/**
 * Validates an untrusted definition (a loaded file, a built-in) and fills the defaults. Throws an
 * `AgentDefinitionError` whose message names `source` and each offending field.
 */
export function parseAgentDefinition(raw: unknown, source: string): AgentDefinition {
  const parsed = agentDefinitionSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new AgentDefinitionError(source, parsed.error.issues.flatMap(describeIssue));
}

const SCHEMA_KEYWORDS =
  'type, title, description, properties, required, additionalProperties, items, minItems, minLength, enum';

function describeIssue(issue: z.core.$ZodIssue): AgentDefinitionIssue[] {
  const join = (path: readonly PropertyKey[]) =>
    path
      .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
      .join('')
      .replace(/^\./, '');
  if (issue.code !== 'unrecognized_keys')
    return [{ field: join(issue.path) || '(definition)', problem: issue.message }];
  const inSchema = issue.path.length > 0;
  const problem = inSchema ? `unsupported JSON Schema keyword (supported: ${SCHEMA_KEYWORDS})` : 'unknown field';
  return issue.keys.map((key) => ({ field: join([...issue.path, key]), problem }));
}

function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

export type ResolvedTools = { ok: true; tools: string[] } | { ok: false; message: string };

/**
 * The tools a sub-agent is given besides `complete_task`, from the names the main agent has: its
 * own list (each name must be among them), or, when it lists none, all of them but `invoke_agent` and `ask_user`.
 */
export function resolveAgentTools(
  agent: Pick<AgentDefinition, 'name' | 'tools'>,
  available: readonly string[],
): ResolvedTools {
  if (agent.tools === undefined) {
    const inherited = available.filter(
      (name) => name !== INVOKE_AGENT && name !== COMPLETE_TASK && !MAIN_ONLY.includes(name),
    );
    return { ok: true, tools: inherited };
  }
  const unknown = agent.tools.filter((name) => !isMcpToolPattern(name) && !available.includes(name));
  if (unknown.length > 0) {
    const tools = `tool${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`;
    return { ok: false, message: `agent ${agent.name}: unknown ${tools} (available: ${available.join(', ')})` };
  }
  const tools = agent.tools.flatMap((name) => (isMcpToolPattern(name) ? matchingMcpTools(name, available) : [name]));
  return { ok: true, tools: [...new Set(tools)] };
}

/**
 * An MCP tool's name (`mcp_<server>_<tool>`) or a wildcard over them (`mcp_<server>_*`, `mcp_*`). Which
 * ones exist is known only once the prompt's discovery ran, so an agent file may name them freely; one
 * whose server offered nothing this time is left out rather than failing the agent.
 */
export function isMcpToolPattern(name: string): boolean {
  return name.startsWith('mcp_');
}

function matchingMcpTools(pattern: string, available: readonly string[]): string[] {
  if (!pattern.endsWith('*')) return available.includes(pattern) ? [pattern] : [];
  const prefix = pattern.slice(0, -1);
  return available.filter((name) => name.startsWith(prefix));
}
