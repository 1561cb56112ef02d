import { patched } from '@temporalio/workflow';
import type { FunctionCall } from '../../core/types';
import type { PromptState } from './prompt-state';

/**
 * A call whose id the model already used in this prompt (in an earlier turn or twice in one turn)
 * gets an id of its own, `<id>#<n>`, so that it has its own record, approval and journal entry and
 * never inherits an earlier call's decision or outcome. Behind a patch: old histories keep their ids.
 */
export const FRESH_CALL_IDS_PATCH = 'fresh-call-ids';

/**
 * Gives the calls of a new model turn prompt-unique ids, in place, before anything is reported or
 * decided. A renamed call keeps the model's id in `modelId`, which its function response carries.
 * Calls whose id is new keep it unchanged, so histories without reuse see no difference.
 */
export function adoptCallIds(state: PromptState, calls: FunctionCall[]): void {
  const taken = new Set<string>();
  for (const call of calls) {
    if (state.book.calls.has(call.id) || taken.has(call.id)) {
      if (!patched(FRESH_CALL_IDS_PATCH)) return;
      const fresh = freshId(state, taken, call.id);
      call.modelId = call.id;
      call.id = fresh;
    }
    taken.add(call.id);
  }
}

function freshId(state: PromptState, taken: Set<string>, id: string): string {
  for (let n = 2; ; n += 1) {
    const candidate = `${id}#${n}`;
    if (!state.book.calls.has(candidate) && !taken.has(candidate)) return candidate;
  }
}

/** The id the model gave a call: what its function response must carry. */
export function modelIdOf(call: FunctionCall): string {
  return call.modelId ?? call.id;
}
