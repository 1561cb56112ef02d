import { z } from 'zod';
import type { WorkflowTool } from './types';

/** Gemini CLI's todo statuses (`blocked` came with its later versions). */
export const TODO_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled', 'blocked'] as const;

export type TodoStatus = (typeof TODO_STATUSES)[number];

/** One item of the agent's todo list, as the model wrote it. */
export interface Todo {
  description: string;
  status: TodoStatus;
}

const todoSchema = z.object({
  description: z.string().trim().min(1, 'must not be blank').describe('What the task is.'),
  status: z.enum(TODO_STATUSES).describe(`One of ${TODO_STATUSES.join(', ')}.`),
});

const schema = z.object({
  todos: z
    .array(todoSchema)
    .superRefine((todos, ctx) => {
      const working = todos.filter((todo) => todo.status === 'in_progress').length;
      if (working > 1)
        ctx.addIssue({
          code: 'custom',
          message: `only one task may be in_progress at a time (${working} are); mark the others pending`,
        });
    })
    .describe('The whole list, replacing the previous one; an empty list clears it.'),
});

/**
 * `write_todos`: the agent's own plan of work. The list lives in the prompt's state (the workflow runs the
 * tool), so it outlives a worker crash and continue-as-new, and `status` shows it.
 */
export const writeTodosTool: WorkflowTool<typeof schema> = {
  name: 'write_todos',
  description:
    'Keep a todo list for a task of several steps, so you and the user can follow your progress. Send the whole ' +
    `list each time (it replaces the previous one). Statuses: ${TODO_STATUSES.join(', ')}; at most one task is ` +
    'in_progress: mark a task in_progress before you start it and completed as soon as it is done.',
  kind: 'other',
  promptOnly: true,
  runsIn: 'workflow',
  parameters: schema,
};

/** Parses the arguments of an allowed call (already checked against the schema) into the list. */
export function todosOf(args: Record<string, unknown>): Todo[] {
  return schema.parse(args).todos.map(({ description, status }) => ({ description, status }));
}

/** What the model is told once the list is stored. */
export function describeTodos(todos: readonly Todo[]): string {
  if (todos.length === 0) return 'The todo list is now empty.';
  const lines = todos.map((todo, i) => `${i + 1}. [${todo.status}] ${todo.description}`);
  return ['The todo list is updated:', ...lines].join('\n');
}
