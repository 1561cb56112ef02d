import type { PromptContext } from './context';
import { environment, hookContext, skills, subAgentRun, subAgents } from './extras';
import { criticalCommands, gitPractice, toneAndStyle, toolUsage } from './guidelines';
import { coreMandates, identity, unattended } from './identity';
import { durableRuns, finishing, toolChoice } from './runs';
import { contextEfficiency, engineeringStandards, security } from './safety';
import { debugging, engineeringWorkflow, newApplicationWorkflow, planningWorkflow } from './workflows';

export type { PromptContext } from './context';

/**
 * The system instruction, composed from sections in the order Gemini CLI's models are used to: who the
 * agent is, the mandates, the workflows, the guidelines, then the environment and the project context.
 * The main agent gets all of it, with the planning workflow in plan mode; a sub-agent gets its own
 * preamble and the sections that are about safety and tools, not the main agent's workflows.
 */
export function buildSystemPrompt(ctx: PromptContext): string {
  const sections = ctx.preamble ? subAgentSections(ctx) : mainSections(ctx);
  const prompt = sections.filter((s): s is string => s !== undefined).join('\n\n');
  return withMemory(prompt, ctx.memory);
}

/** The project context after a rule, as Gemini CLI appends the user memory. */
export function withMemory(prompt: string, memory: string | undefined): string {
  return memory ? `${prompt}\n\n---\n\n${memory}` : prompt;
}

function mainSections(ctx: PromptContext): (string | undefined)[] {
  const workflows =
    ctx.mode === 'plan'
      ? [planningWorkflow(ctx)]
      : [engineeringWorkflow(ctx), debugging(), newApplicationWorkflow(ctx)];
  return [
    identity(ctx),
    unattended(ctx),
    coreMandates(ctx),
    security(ctx),
    contextEfficiency(ctx),
    engineeringStandards(),
    ...workflows,
    subAgents(ctx),
    skills(ctx),
    toneAndStyle(),
    criticalCommands(),
    toolUsage(ctx),
    toolChoice(ctx),
    gitPractice(ctx),
    hookContext(),
    durableRuns(ctx),
    finishing(ctx),
    environment(ctx),
  ];
}

function subAgentSections(ctx: PromptContext): (string | undefined)[] {
  return [
    ctx.preamble,
    subAgentRun(),
    security(ctx),
    contextEfficiency(ctx),
    toolUsage({ ...ctx, unattended: true }),
    toolChoice(ctx),
    gitPractice(ctx),
    environment(ctx),
  ];
}
