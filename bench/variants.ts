import type { WorkerOptions } from '@temporalio/worker';
import type { DevServerOptions } from '../src/server/dev-server';
import { openBenchServer, type BenchEnv } from './env';
import { measurePerTurn } from './per-turn';
import { historyShape } from './history';
import { openRig } from './rig';

/** One server or worker setting tried against the per-turn cost, each on a fresh dev server. */
export interface Variant {
  name: string;
  server?: Partial<DevServerOptions>;
  worker?: Partial<WorkerOptions>;
}

export const VARIANTS: Variant[] = [
  { name: 'as shipped' },
  {
    name: 'eager activity dispatch (server flag)',
    server: { dynamicConfig: { 'system.enableActivityEagerExecution': true } },
  },
  {
    name: 'SQLite rollback journal (journal_mode=delete, the SQLite default)',
    server: { sqlitePragmas: { journal_mode: 'delete' } },
  },
  { name: 'SQLite WAL with synchronous=normal', server: { sqlitePragmas: { synchronous: 'normal' } } },
  { name: 'SQLite in memory (no file: reference only)', server: { dbFile: undefined } },
  { name: 'no sticky cache (maxCachedWorkflows 0: reference only)', worker: { maxCachedWorkflows: 0 } },
];

export interface VariantResult {
  name: string;
  perTurnMs: number;
  oneTurnMs: number;
  workflowTasksPerTurn: number;
  activityTasksPerTurn: number;
}

export async function measureVariants(
  env: BenchEnv,
  longTurns: number,
  runs: number,
  variants = VARIANTS,
): Promise<VariantResult[]> {
  const out: VariantResult[] = [];
  for (const [i, variant] of variants.entries()) {
    env.log(`variant: ${variant.name}`);
    const server = await openBenchServer(env, `variant-${i}`, variant.server ?? {});
    try {
      const rig = await openRig(env, server, `variant-${i}`, 1024, variant.worker ?? {});
      try {
        const result = await measurePerTurn(rig, longTurns, runs, { floor: false });
        const shape = await historyShape(server.client, result.longWorkflowId);
        out.push({
          name: variant.name,
          perTurnMs: result.temporal.perTurnMs,
          oneTurnMs: Math.min(...result.temporal.oneTurnMs),
          workflowTasksPerTurn: shape.workflowTasks / longTurns,
          activityTasksPerTurn: (shape.activityTasks + shape.localActivityMarkers) / longTurns,
        });
      } finally {
        await rig.close();
      }
    } finally {
      await server.close();
    }
  }
  return out;
}
