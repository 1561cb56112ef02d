import { z } from 'zod';
import { describeIssues } from '../confirmation';
import type { HookOutput } from './types';

/** Gemini CLI's exit codes: 0 success, 2 blocking (stderr is the reason); anything else a warning. */
export const EXIT_SUCCESS = 0;
export const EXIT_BLOCKING = 2;

const outputSchema = z.object({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  decision: z.enum(['allow', 'approve', 'ask', 'block', 'deny']).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .object({
      additionalContext: z.string().optional(),
      tool_input: z.record(z.string(), z.unknown()).optional(),
      tailToolCallRequest: z
        .object({ name: z.string().min(1), args: z.record(z.string(), z.unknown()).optional() })
        .optional(),
      clearContext: z.boolean().optional(),
      llm_request: z.record(z.string(), z.unknown()).optional(),
      llm_response: z.record(z.string(), z.unknown()).optional(),
      toolConfig: z
        .object({
          mode: z.enum(['AUTO', 'ANY', 'NONE']).optional(),
          allowedFunctionNames: z.array(z.string()).optional(),
        })
        .optional(),
    })
    .optional(),
});

/**
 * Reads what a finished hook process said. Exit 0: stdout (or stderr when stdout is
 * empty) as JSON, a JSON string holding JSON parsed twice, other text as a system message. Exit 2:
 * a `deny` with stderr as the reason. Any other exit code: a warning and no output, so a crashed
 * or missing command never blocks the agent. JSON of the wrong shape is a warning too.
 */
export function readHookOutput(
  exitCode: number,
  stdout: string,
  stderr: string,
): { output?: HookOutput; warning?: string } {
  if (exitCode === EXIT_BLOCKING)
    return { output: { decision: 'deny', reason: stderr.trim() || stdout.trim() || 'Blocked by hook.' } };
  if (exitCode !== EXIT_SUCCESS)
    return { warning: `exited with code ${exitCode}${stderr.trim() ? `: ${firstLine(stderr)}` : ''}` };
  const text = stdout.trim() || stderr.trim();
  if (!text) return {};
  const json = parseJson(text);
  if (json === undefined || typeof json !== 'object' || json === null || Array.isArray(json))
    return { output: { decision: 'allow', systemMessage: text } };
  const parsed = outputSchema.safeParse(json);
  if (!parsed.success)
    return { warning: `printed JSON that is not a hook output (${describeIssues(parsed.error)}); ignored` };
  return { output: parsed.data as HookOutput };
}

function parseJson(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? (parseJson(value) ?? value) : value;
  } catch {
    return undefined;
  }
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
