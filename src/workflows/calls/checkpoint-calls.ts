import type { CallRecord } from '../api';
import { checkpointsEnabled } from '../../core/checkpoints';
import { findTool } from '../../tools';
import { mayChangeWorkspace } from '../../tools/facts';
import type { PromptRun } from '../run/prompt-run';
import { emit } from '../run/records';
import { recordCallCheckpoint, recordTurnCheckpoint, turnTookCheckpoints } from '../run/turn-records';
import { isPatched, PATCHES } from '../patches';
import { mcpToolOf } from './mcp-calls';

/**
 * Workspace checkpoints around the calls that may change files: one just before such a call runs (it runs alone in
 * its wave, so this is the checkpoint before its wave) and one when the turn's calls are answered. A sub-agent takes
 * none: its changes land in its parent turn's end checkpoint. Only the references enter history.
 */
export async function checkpointBeforeCall(run: PromptRun, record: CallRecord): Promise<void> {
  if (!takesCheckpoints(run) || !changesFiles(run, record.name)) return;
  if (!isPatched(PATCHES.workspaceCheckpoints)) return;
  const ref = await takeCheckpoint(run);
  if (ref) recordCallCheckpoint(run.state, { callId: record.callId, name: record.name, before: ref });
}

/** After the turn's calls, when one of them took a checkpoint before it ran. */
export async function checkpointTurnEnd(run: PromptRun): Promise<void> {
  if (!takesCheckpoints(run) || !turnTookCheckpoints(run.state)) return;
  const ref = await takeCheckpoint(run);
  if (!ref) return;
  recordTurnCheckpoint(run.state, ref);
  emit(run.state, { type: 'checkpoint', turn: run.state.progress.turns, checkpoint: ref });
}

function takesCheckpoints(run: PromptRun): boolean {
  return !run.subagent && checkpointsEnabled(run.state.input.checkpointing);
}

function changesFiles(run: PromptRun, name: string): boolean {
  const mcp = mcpToolOf(run.state, name);
  if (mcp) return !mcp.readOnly;
  const tool = findTool(name);
  return tool !== undefined && mayChangeWorkspace(tool);
}

async function takeCheckpoint(run: PromptRun): Promise<string | undefined> {
  const { workspace, checkpointing } = run.state.input;
  const taken = await run.acts.checkpointWorkspace({ workspace, settings: checkpointing });
  if (taken.ok) return taken.ref;
  emit(run.state, { type: 'warning', message: `No checkpoint: ${taken.message}` });
  return undefined;
}
