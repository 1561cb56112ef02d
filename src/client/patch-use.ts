import type { Client } from '@temporalio/client';
import { PATCHES, type Patch } from '../workflows/patches';
import { AGENT_WORKFLOW_TYPES } from './histories';

/** How the open runs stand with one replay patch. */
export interface PatchUse {
  patch: Patch;
  /** Open runs whose history holds the patch's marker: they took its new branch. */
  recorded: number;
  /** Open runs without it: not there yet, or past it under code older than the patch. */
  missing: number;
}

/** The workflow types that check patches: all of the agent's but the session workflow, which checks none. */
const PATCHED_TYPES = `WorkflowType IN (${AGENT_WORKFLOW_TYPES.filter((t) => t !== 'agentSessionWorkflow')
  .map((t) => `'${t}'`)
  .join(', ')})`;

/** The ids of the patch markers (`core_patch`) a history recorded. */
function markerIds(events: { markerRecordedEventAttributes?: unknown }[]): Set<string> {
  const ids = new Set<string>();
  for (const event of events) {
    const marker = event.markerRecordedEventAttributes as
      | { markerName?: string; details?: Record<string, { payloads?: { data?: Uint8Array }[] }> }
      | undefined;
    if (marker?.markerName !== 'core_patch') continue;
    const data = marker.details?.['patch-data']?.payloads?.[0]?.data;
    if (!data) continue;
    const { id } = JSON.parse(Buffer.from(data).toString('utf8')) as { id?: string };
    if (id) ids.add(id);
  }
  return ids;
}

/**
 * Reads every open prompt and sub-agent run's history (however old: an open run is what a retired patch
 * would break) and counts, per patch, the runs that recorded it and the runs that did not.
 */
export async function patchUse(
  client: Client,
  patches: readonly Patch[] = Object.values(PATCHES),
): Promise<{ open: number; uses: PatchUse[] }> {
  const uses = patches.map((patch) => ({ patch, recorded: 0, missing: 0 }));
  let open = 0;
  const runs = client.workflow.list({ query: `${PATCHED_TYPES} AND ExecutionStatus = 'Running'` }).intoHistories();
  for await (const { history } of runs) {
    open += 1;
    const ids = markerIds(
      (history as { events?: { markerRecordedEventAttributes?: unknown }[] } | undefined)?.events ?? [],
    );
    for (const use of uses) use[ids.has(use.patch.id) ? 'recorded' : 'missing'] += 1;
  }
  return { open, uses };
}

/**
 * What `replay-check` advises for one patch. A run without the marker may have passed the patch's point on
 * older code, so it keeps the old branch alive; once every open run took the new branch the check may become
 * `deprecate`, and a retiring patch goes when no open run recorded it.
 */
export function patchAdvice({ patch, recorded, missing }: PatchUse): string {
  const head = `${patch.id} (since ${patch.since})`;
  if (patch.retiring)
    return recorded > 0
      ? `${head}: retiring; remove the deprecate call once the ${recorded} open run(s) that recorded it end`
      : `${head}: can go; no open run recorded it`;
  if (missing > 0) return `${head}: keep; ${missing} open run(s) lack its marker`;
  if (recorded > 0) return `${head}: may become deprecatePatch; every open run took its new branch`;
  return `${head}: can go; no open run needs it`;
}
