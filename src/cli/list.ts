import { Option, type Command } from 'commander';
import type { Client } from '@temporalio/client';
import { LIST_STATUSES, listPrompts, type ListedPrompt, type ListStatus } from '../client';
import { positiveInt } from './arguments';
import type { Io } from './output';
import { usd } from './cost-text';
import { costKnown } from '../core/cost';

type WithClient = (run: (client: Client) => Promise<number>) => Promise<number>;

export function addList(program: Command, withClient: WithClient, io: Io): void {
  program
    .command('list')
    .description('list prompts and sessions, newest first')
    .option('--json', 'one JSON object per line')
    .option('--limit <n>', 'show at most n (default 50)', positiveInt)
    .addOption(new Option('--status <state>', 'only prompts in this state').choices(LIST_STATUSES))
    .action(async (o: { json?: boolean; limit?: number; status?: ListStatus }) => {
      process.exitCode = await withClient(async (client) => {
        renderList(await listPrompts(client, { limit: o.limit, status: o.status }), !!o.json, io);
        return 0;
      });
    });
}

/** `list`'s output: a line per prompt, or one JSON object per line. */
export function renderList(prompts: ListedPrompt[], json: boolean, out: Io): void {
  if (json) return prompts.forEach((p) => out.stdout.write(`${JSON.stringify(p)}\n`));
  if (prompts.length === 0) return void out.stdout.write('no prompts yet\n');
  for (const p of prompts) {
    const kind = p.type === 'agentSessionWorkflow' ? 'session' : 'prompt';
    const started = p.startTime.slice(0, 19).replace('T', ' ');
    const cost = (p.cost && (costKnown(p.cost) ? usd(p.cost.usd) : 'unknown')) ?? '-';
    const cells = [p.workflowId, kind.padEnd(7), p.status.toLowerCase().padEnd(10), started, p.host ?? '-', cost];
    const unserved = p.served === false ? '  (no worker serves its queue)' : '';
    out.stdout.write(`${cells.join('  ')}  ${p.workspace ?? '-'}${unserved}\n`);
    if (p.summary) out.stdout.write(`    ${p.summary}\n`);
  }
}
