import { defaultOutputSchema, type AgentDefinition } from './definition';
import type { JsonSchema } from './json-schema-check';

/**
 * The built-in sub-agents, with Gemini CLI's names, inputs, outputs, tools and limits
 * and system prompts in our own words. The rules every sub-agent shares (finish with
 * complete_task, no one to ask) are added by `finishInstructions` in recovery.ts, not repeated here.
 */

const stringList = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });

/**
 * Gemini CLI's report, field for field, under its output name `report`: `complete_task`'s arguments
 * are `{ report: { SummaryOfFindings, ExplorationTrace, RelevantLocations } }`, so recorded Gemini
 * CLI sessions replay against this agent.
 */
export const CODEBASE_REPORT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    report: {
      type: 'object',
      description: 'The investigation report.',
      properties: {
        SummaryOfFindings: {
          type: 'string',
          description: 'Conclusions and insights for the agent that asked: root cause, where to change what, risks.',
        },
        ExplorationTrace: stringList('The steps taken, in order: each search, listing or read and what it showed.'),
        RelevantLocations: {
          type: 'array',
          description: 'The files that matter, each with why and its key symbols.',
          items: {
            type: 'object',
            properties: {
              FilePath: { type: 'string', description: 'Path of the file, relative to the workspace root.' },
              Reasoning: { type: 'string', description: 'Why this file matters to the objective.' },
              KeySymbols: stringList('Functions, classes, types or constants in it that matter.'),
            },
            required: ['FilePath', 'Reasoning', 'KeySymbols'],
          },
        },
      },
      required: ['SummaryOfFindings', 'ExplorationTrace', 'RelevantLocations'],
    },
  },
  required: ['report'],
};

const INVESTIGATOR_PROMPT = `You are the codebase investigator, a sub-agent that another coding agent sends to \
understand part
of a software project before it changes anything. You read; you never edit, and you never run commands.

Your job is to return the context the other agent needs to act correctly:
- Find the modules, functions, types and configuration involved in the objective, and read them.
- Work out why the code is the way it is, not only where it is.
- Follow the consequences of a change: callers of a function, users of a type, tests that cover
  the behaviour, places that duplicate the logic.
- For a bug, locate the root cause and say how it shows. For a feature, say where it belongs and what
  has to change around it.
- Do not stop at the first match. Keep going until the open questions are answered or you can say
  precisely what remains unknown.

Method:
1. Start from the strongest clues in the objective: names, error messages, file paths.
2. Use grep_search and glob to find candidates, list_directory to learn the layout, read_file to read.
   Independent reads can be requested together in one turn.
3. Keep a short running list of questions and findings in your replies, and drop dead ends.

Your report is data, not prose for a person:
- SummaryOfFindings: the conclusions and the advice, specific enough to act on.
- ExplorationTrace: one line per step you took, in order.
- RelevantLocations: each file that matters, with the reason and its key symbols. Paths relative to
  the workspace root.`;

export const codebaseInvestigatorAgent: AgentDefinition = {
  name: 'codebase_investigator',
  description:
    'Investigates the codebase read-only and returns a structured report: findings, the steps taken, and the ' +
    'relevant files with their key symbols. Use it for vague requests, root-cause analysis of a bug, planning a ' +
    'refactoring or a feature across several files, or any question about the code that needs real exploration.',
  systemPrompt: INVESTIGATOR_PROMPT,
  inputSchema: {
    type: 'object',
    properties: {
      objective: {
        type: 'string',
        description: "The user's goal in full, with the questions to answer and any context already known.",
      },
    },
    required: ['objective'],
  },
  outputSchema: CODEBASE_REPORT_SCHEMA,
  tools: ['list_directory', 'read_file', 'glob', 'grep_search'],
  temperature: 0.1,
  topP: 0.95,
  maxTurns: 50,
  maxMinutes: 10,
  recoveryGraceSeconds: 60,
};

const GENERALIST_PROMPT = `You are a general-purpose sub-agent. Another coding agent has handed you one \
self-contained task
in a user's project, and you carry it out on your own with the tools you have.

- Read before you change: follow the project's conventions, style and libraries.
- Change only what the task needs, and check your work with the project's own tests or build
  when it has them.
- Mutating tools may wait for a person's approval; a refused call is final, so choose another way.
- Your answer goes back to the agent that sent you, not to the user: report what you did, what you
  found, and anything left undone, precisely and briefly.`;

export const generalistAgent: AgentDefinition = {
  name: 'generalist',
  description:
    'A general-purpose agent with all of your tools. Hand it a self-contained, multi-step task (a batch of ' +
    'edits, a command-heavy chore, a focused fix) to keep the details out of your own conversation; it returns ' +
    'a written result.',
  systemPrompt: GENERALIST_PROMPT,
  inputSchema: {
    type: 'object',
    properties: { request: { type: 'string', description: 'The task, complete with all the context it needs.' } },
    required: ['request'],
  },
  outputSchema: defaultOutputSchema(),
  maxTurns: 20,
  maxMinutes: 10,
  recoveryGraceSeconds: 60,
};

export const BUILTIN_AGENTS: readonly AgentDefinition[] = [codebaseInvestigatorAgent, generalistAgent];

export function isBuiltinAgentName(name: string): boolean {
  return BUILTIN_AGENTS.some((agent) => agent.name === name);
}
