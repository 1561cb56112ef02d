import { previewMarkers } from '../blob-marker';
import type { FunctionDeclaration } from '../../tools/types';
import { checkJsonSchema, type JsonSchema } from './json-schema-check';

/**
 * `complete_task`'s protocol: how a sub-agent submits its output and ends. Its
 * arguments ARE the output object, so the declaration the model sees is the agent's output schema,
 * and the real check is `checkCompleteTask` against that schema, run by the child workflow. A
 * rejected call is an error result the model can correct, never a failure of the run.
 */

export const COMPLETE_TASK = 'complete_task';

export const COMPLETE_TASK_DESCRIPTION =
  'Submit your final output and end your task. Call it alone in its turn, once you are done; its arguments are ' +
  'the output itself. Nothing else you write reaches the agent that sent you.';

/** The function response for an accepted complete_task (the run then ends with `goal`). */
export const COMPLETE_TASK_ACCEPTED = 'Output accepted; your task is complete.';

/** At most this many schema errors are listed to the model; the rest are counted. */
const MAX_LISTED_ERRORS = 20;

/** The declaration for one agent: its output schema as parameters, the fields named in the description. */
export function completeTaskDeclaration(outputSchema: JsonSchema): FunctionDeclaration {
  const fields = Object.keys(outputSchema.properties ?? {});
  const description =
    fields.length > 0 ? `${COMPLETE_TASK_DESCRIPTION} Output fields: ${fields.join(', ')}.` : COMPLETE_TASK_DESCRIPTION;
  return { name: COMPLETE_TASK, description, parametersJsonSchema: clone(outputSchema) };
}

export type CompleteTaskCheck = { ok: true; output: Record<string, unknown> } | { ok: false; message: string };

/**
 * Checks a complete_task call's arguments against the agent's output schema. Blob markers (long
 * strings kept out of history) are checked as their preview; on success `output` is the caller's
 * object, unchanged, markers kept. On failure `message` lists each offending field and what to do.
 */
export function checkCompleteTask(args: unknown, outputSchema: JsonSchema): CompleteTaskCheck {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    const fields = Object.keys(outputSchema.properties ?? {}).join(', ');
    return {
      ok: false,
      message:
        `complete_task was not accepted: its arguments must be a JSON object, the output itself (fields: ` +
        `${fields}). Call complete_task again.`,
    };
  }
  const check = checkJsonSchema(previewMarkers(args), outputSchema);
  if (check.ok) return { ok: true, output: args as Record<string, unknown> };
  const listed = check.errors.slice(0, MAX_LISTED_ERRORS).map((error) => `- ${error}`);
  const more = check.errors.length - listed.length;
  if (more > 0) listed.push(`- ... and ${more} more`);
  return {
    ok: false,
    message: [
      'complete_task was not accepted: the output does not match the required schema.',
      ...listed,
      'Fix these fields and call complete_task again with the whole output.',
    ].join('\n'),
  };
}

/**
 * The output as text for the agent that invoked the sub-agent: a single field is unwrapped (a
 * string as it is, anything else as pretty JSON), as Gemini CLI shows `result` and `report`.
 * Resolve blob markers before calling this.
 */
export function completeTaskOutputText(output: Record<string, unknown>): string {
  const keys = Object.keys(output);
  const value = keys.length === 1 ? output[keys[0]] : output;
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

function clone(value: JsonSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
