import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { FAILURES } from '../core/failures';
import { buildSystemPrompt, withMemory, type PromptContext } from '../core/prompt';
import { skills } from '../core/prompt/extras';
import type { SystemMdPaths } from '../core/prompt/shape';

export type SystemInstructionInput = Omit<PromptContext, 'gitRepo' | 'memory'> & { systemMd?: SystemMdPaths };

/**
 * The system instruction of one request: our prompt (or the replacement file's text, read at every
 * request as Gemini CLI reads it), then the project context. Built inside the activity, so changing
 * the prompt's text never touches a recorded history.
 */
export async function systemInstruction(input: SystemInstructionInput, memory?: string): Promise<string> {
  const { systemMd, ...ctx } = input;
  const prompt = systemMd?.replace
    ? withMemory(substitute(await readReplacement(systemMd.replace), ctx), memory)
    : buildSystemPrompt({ ...ctx, memory, gitRepo: await insideGitRepo(ctx.workspace) });
  if (systemMd?.write) {
    await fs.mkdir(path.dirname(systemMd.write), { recursive: true });
    await fs.writeFile(systemMd.write, prompt);
  }
  return prompt;
}

async function readReplacement(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    throw ApplicationFailure.create({
      type: FAILURES.systemPromptFile.type,
      message: `GEMINI_SYSTEM_MD: cannot read the system prompt file ${file}: ${(err as Error).message}`,
      nonRetryable: true,
    });
  }
}

/** The placeholders Gemini CLI fills in a replacement prompt that are about tools and skills. */
function substitute(text: string, { toolNames, ...ctx }: Omit<PromptContext, 'memory'>): string {
  const list = toolNames.length > 0 ? toolNames.map((name) => `- ${name}`).join('\n') : 'No tools are available.';
  return text
    .replace(/\$\{AvailableTools\}/g, list)
    .replace(/\$\{AgentSkills\}/g, () => skills({ ...ctx, toolNames }) ?? '')
    .replace(/\$\{(\w+)_ToolName\}/g, (whole, name: string) => (toolNames.includes(name) ? name : whole));
}

/** The workspace or a folder above it holds `.git` (a folder, or a file in a linked worktree). */
async function insideGitRepo(workspace: string): Promise<boolean> {
  for (let dir = path.resolve(workspace); ; dir = path.dirname(dir)) {
    if (
      await fs.stat(path.join(dir, '.git')).then(
        () => true,
        () => false,
      )
    )
      return true;
    if (path.dirname(dir) === dir) return false;
  }
}
