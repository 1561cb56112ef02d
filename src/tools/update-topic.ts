import { z } from 'zod';
import type { WorkflowTool } from './types';

/** One chapter of a prompt's work, as the model named it with `update_topic`. */
export interface Topic {
  title: string;
  /** What the previous chapter did and what this one sets out to do. */
  summary?: string;
  /** The model's latest one-sentence intent within the chapter. */
  intent: string;
  /** The prompt's model turn that opened the chapter. */
  turn: number;
}

/** Chapters a prompt keeps (and carries across continue-as-new); older ones are dropped first. */
export const MAX_TOPICS = 50;

const text = (what: string) => z.string().trim().min(1, 'must not be blank').describe(what);

const schema = z.object({
  title: text('The title of the new chapter. Only when the work enters a new phase.').optional(),
  summary: text(
    'Only with a new title: a few sentences on what the previous chapter did and what this one will do.',
  ).optional(),
  strategic_intent: text('One sentence: what you are about to do next.'),
});

/**
 * `update_topic`, under Gemini CLI 0.61.0's name and parameters: the model names the chapters of a long
 * task, so a person reading `status`, `watch` or stream-json of an unattended run sees what phase it is
 * in. The topics live in the prompt's state (the workflow runs the tool); nothing outside changes.
 */
export const updateTopicTool: WorkflowTool<typeof schema> = {
  name: 'update_topic',
  description:
    'Say what you are working on, so the user can follow a long task as chapters. Give `strategic_intent` ' +
    '(one sentence on your next step) whenever your immediate aim changes; add `title` and `summary` only when ' +
    'the work moves into a new phase (for example from investigating to implementing, or to verifying).',
  kind: 'think',
  promptOnly: true,
  runsIn: 'workflow',
  parameters: schema,
};

export interface TopicUpdate {
  topics: Topic[];
  /** Whether the call opened a chapter (a title different from the current one). */
  opened: boolean;
  /** What the model is told. */
  text: string;
}

/** Applies an allowed call (already checked against the schema) to the prompt's chapters. */
export function updateTopics(topics: readonly Topic[], args: Record<string, unknown>, turn: number): TopicUpdate {
  const { title, summary, strategic_intent: intent } = schema.parse(args);
  const current = topics[topics.length - 1];
  if (title && title !== current?.title) {
    const opened: Topic = { title, ...(summary ? { summary } : {}), intent, turn };
    const text = `Current topic: "${title}"\nTopic summary: ${summary ?? '...'}\n\nStrategic intent: ${intent}`;
    return { topics: [...topics, opened].slice(-MAX_TOPICS), opened: true, text };
  }
  const kept = current ? [...topics.slice(0, -1), { ...current, intent }] : [{ title: title ?? '', intent, turn }];
  return { topics: kept, opened: false, text: `Strategic intent: ${intent}` };
}
