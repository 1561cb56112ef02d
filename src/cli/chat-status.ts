import { promptStatus, sessionStatus, type Client, type StatusReport } from '../client';
import { addUsage, EMPTY_USAGE, type TokenUsage } from '../core/types';
import { tokensLine, formatStatus } from './status-text';
import { costLine, costOfStats, sumCosts } from './cost-text';

/** What `/status` needs of the chat. */
export interface StatusTarget {
  client: Client;
  id: string;
  /** Set while the session does not exist yet (its first message starts it). */
  started: boolean;
}

/** Prompts whose reports are read at once when the session's tokens are added up. */
const READ_AT_ONCE = 8;

/**
 * Chat's `/status`: the session (prompts done, open or closing, tokens of all its prompts), then the
 * running prompt as `status ID` shows it (its tools, calls awaiting approval with the commands
 * that answer them, its tokens and cost), then the queued messages.
 */
export async function sessionStatusText(s: StatusTarget): Promise<string> {
  if (!s.started) return `session ${s.id} starts with your first message\n`;
  const status = await sessionStatus(s.client, s.id);
  if (!status) return `session ${s.id}: no worker answered\n`;
  const total = status.prompts + (status.current ? 1 : 0);
  const reports = await promptReports(s.client, s.id, total);
  const running = reports.find((r) => r.workflowId === status.current);
  const usage = reports.reduce<TokenUsage>((sum, r) => (r.stats ? addUsage(sum, r.stats.usage) : sum), EMPTY_USAGE);
  const lines = [
    `session ${s.id}: ${status.prompts} prompt(s) done; ${status.closed ? 'closing' : 'open'}`,
    `  ${tokensLine(usage, `tokens (session, ${reports.length} prompt(s))`)}`,
  ];
  const cost = costLine(sumCosts(reports.map((r) => costOfStats(r.stats))), 'cost (session)');
  if (cost) lines.push(`  ${cost}`);
  if (running) lines.push(`running ${formatStatus(running).trimEnd()}`);
  else if (status.current) lines.push(`running ${status.current}`);
  if (status.queued.length > 0) lines.push(`queued ${status.queued.map((q) => q.promptId).join(', ')}`);
  return `${lines.join('\n')}\n`;
}

/** The reports of the session's prompts `1..count` (those that cannot be read are left out). */
async function promptReports(client: Client, sessionId: string, count: number): Promise<StatusReport[]> {
  const reports: StatusReport[] = [];
  for (let first = 1; first <= count; first += READ_AT_ONCE) {
    const ids = Array.from({ length: Math.min(READ_AT_ONCE, count - first + 1) }, (_, i) => first + i);
    const batch = await Promise.all(ids.map((n) => promptStatus(client, `${sessionId}-p${n}`).catch(() => undefined)));
    reports.push(...batch.filter((r): r is StatusReport => r !== undefined));
  }
  return reports;
}
