import type { ModelTurn, NewPart, ToolOutcome } from '../src/core/types';
import { createActivities } from '../src/activities';
import { createGenAI } from '../src/model/client';
import { toolNames } from '../src/tools';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { median, repeat, timed } from './stats';
import { BENCH_API_KEY, scriptFor, type Rig } from './rig';

export interface PerTurnResult {
  longTurns: number;
  temporal: { oneTurnMs: number[]; longMs: number[]; perTurnMs: number };
  floor: { oneTurnMs: number[]; longMs: number[]; perTurnMs: number };
  /** One workflow id of a long run, for the history analysis. */
  longWorkflowId: string;
}

/**
 * Marginal cost of a turn (one model request plus one read_file call): (T(N) − T(1)) / (N − 1),
 * medians of `runs` runs each, through Temporal and as a plain in-process loop over the same
 * activity functions, fake server and stores.
 */
export async function measurePerTurn(
  rig: Rig,
  longTurns: number,
  runs: number,
  options = { floor: true },
): Promise<PerTurnResult> {
  await rig.run(3); // warm-up: worker caches, JIT, first connections
  if (options.floor) await floorRun(rig, 3);
  const temporalOne: number[] = [];
  const temporalLong: number[] = [];
  const floorOne: number[] = [];
  const floorLong: number[] = [];
  let longWorkflowId = '';
  await repeat(runs, async () => {
    temporalOne.push((await rig.run(1)).ms);
    const long = await rig.run(longTurns);
    temporalLong.push(long.ms);
    longWorkflowId = long.workflowId;
    if (!options.floor) return;
    floorOne.push(await floorRun(rig, 1));
    floorLong.push(await floorRun(rig, longTurns));
  });
  const marginal = (one: number[], long: number[]) => (median(long) - median(one)) / (longTurns - 1);
  return {
    longTurns,
    temporal: { oneTurnMs: temporalOne, longMs: temporalLong, perTurnMs: marginal(temporalOne, temporalLong) },
    floor: { oneTurnMs: floorOne, longMs: floorLong, perTurnMs: marginal(floorOne, floorLong) },
    longWorkflowId,
  };
}

let floorCounter = 0;

/** The workflow's loop without Temporal: callModel, then runTool per call, in this process. */
export async function floorRun(rig: Rig, turns: number): Promise<number> {
  rig.fake.load(scriptFor(turns));
  const acts = createActivities({
    models: createGenAI({ geminiApiKey: BENCH_API_KEY }, rig.fake.url).models,
    store: rig.store,
    journal: rig.journal,
  });
  const transcriptId = `floor-${turns}-${Date.now()}-${++floorCounter}`;
  const ctx = new MockActivityEnvironment(
    { workflowExecution: { workflowId: transcriptId, runId: 'floor' } },
    { logger: new DefaultLogger('ERROR') },
  );
  const { ms } = await timed(async () => {
    let length = 0;
    let append: NewPart[] = [{ kind: 'text', text: 'Read the files one by one.' }];
    for (let turn = 1; ; turn++) {
      const answer = (await ctx.run(acts.callModel, {
        transcriptId,
        baseLength: length,
        append,
        model: 'gemini-bench',
        workspace: rig.workspace,
        toolNames: [...toolNames],
        turn,
      })) as ModelTurn;
      length = answer.transcriptLength;
      if (answer.functionCalls.length === 0) return;
      const outcomes: ToolOutcome[] = [];
      for (const call of answer.functionCalls) {
        outcomes.push(
          (await ctx.run(acts.runTool, {
            callId: call.id,
            name: call.name,
            args: call.args,
            workspace: rig.workspace,
            shellTimeoutMs: 300_000,
          })) as ToolOutcome,
        );
      }
      append = outcomes.map((o) => ({
        kind: 'functionResponse',
        callId: o.callId,
        name: o.name,
        response: o.response,
        responseRef: o.responseRef,
      }));
    }
  });
  if (rig.fake.leftovers().length > 0) throw new Error(`floor run left script lines over\n${rig.fake.report()}`);
  return ms;
}
