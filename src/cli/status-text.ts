import type { StatusReport } from '../client';
import type { Topic } from '../tools/update-topic';
import { describeQuestion } from '../runtime/question-hint';
import { shorten } from './output';
import { selfCommand } from '../runtime/self-command';
import { approvalCommands } from './approval-hint';
import type { TokenUsage } from '../core/types';
import { formatUsd } from '../core/spend-limit';
import { costLine, costOfStats } from './cost-text';

/** `status ID` in text: the state, what runs and waits now (with the commands that answer), then the rest. */
export function formatStatus(r: StatusReport): string {
  const lines = [`${r.workflowId}: ${r.status}${r.turns !== undefined ? ` after ${r.turns} turn(s)` : ''}`];
  if (r.host)
    lines.push(
      `  host: ${r.host}${r.waitingForHost ? ` (waiting for host ${r.waitingForHost}: no worker of it is up)` : ''}`,
    );
  for (const t of r.runningTools ?? [])
    lines.push(`  running: ${t.callId} ${t.name} ${shorten(JSON.stringify(t.args), 200)}${forHowLong(t.runningMs)}`);
  for (const p of r.pendingApprovals) {
    const how = approvalCommands(r.workflowId, p.callId);
    lines.push(`  awaiting approval: ${p.callId} ${p.name} ${JSON.stringify(p.args)}`);
    lines.push(`    approve: ${how.approve}`, `    deny:    ${how.deny}`);
  }
  for (const q of r.pendingQuestions ?? []) {
    const questions = Array.isArray(q.questions) ? q.questions : [];
    lines.push(`  awaiting an answer: ${q.callId} ask_user`);
    lines.push(...questions.flatMap((question, i) => describeQuestion(question, i)).map((line) => `    ${line}`));
    lines.push(`    answer: ${selfCommand()} answer ${r.workflowId} ${q.callId} --answer '...'`);
  }
  lines.push(...costLines(r));
  if (r.error) lines.push(`  error: ${r.error.type}: ${r.error.message}`);
  if (r.todos?.length) lines.push('  todos:', ...r.todos.map((t) => `    [${t.status}] ${t.description}`));
  if (r.topics?.length) lines.push('  topics:', ...topicLines(r.topics));
  if (r.stats) lines.push(`  ${tokensLine(r.stats.usage)}`);
  const cost = costLine(costOfStats(r.stats));
  if (cost) lines.push(`  ${cost}`);
  if (r.response) lines.push('', r.response);
  return `${lines.join('\n')}\n`;
}

/** The spending limit, and while paused on it what the next request could cost and how to answer. */
export function costLines(r: Pick<StatusReport, 'workflowId' | 'costLimit'>): string[] {
  const c = r.costLimit;
  if (!c) return [];
  const line = `  spending: ${formatUsd(c.spentUsd)} of the ${formatUsd(c.limitUsd)} limit`;
  if (c.nextRequestUsd === undefined) return [line];
  return [
    `${line}; paused: the next request could cost up to ${formatUsd(c.nextRequestUsd)}`,
    `    top up: ${selfCommand()} budget ${r.workflowId} --add-usd N`,
    `    stop:   ${selfCommand()} budget ${r.workflowId} --stop`,
  ];
}

/** Each chapter on one line, the current one (last) with its latest intent. */
function topicLines(topics: readonly Topic[]): string[] {
  return topics.map((t, i) => {
    const intent = i === topics.length - 1 ? ` (now: ${t.intent})` : '';
    return `    ${i + 1}. ${t.title || '(untitled)'}${t.summary ? `: ${t.summary}` : ''}${intent}`;
  });
}

function forHowLong(ms: number | undefined): string {
  if (ms === undefined) return '';
  const seconds = Math.floor(ms / 1000);
  return seconds < 60 ? ` (for ${seconds} s)` : ` (for ${Math.floor(seconds / 60)} min ${seconds % 60} s)`;
}

/** A prompt's (or a session's) token usage, as `status` prints it. */
export function tokensLine(usage: TokenUsage, label = 'tokens'): string {
  return `${label}: ${usage.input} in, ${usage.output} out, ${usage.cached} cached`;
}
