import type { FunctionCall } from '../../core/types';
import type { PromptState } from './prompt-state';
import { isPatched, PATCHES } from '../patches';

/**
 * Gives the calls of a new model turn prompt-unique ids, in place, before anything is reported or
 * decided. A renamed call keeps the model's id in `modelId`, which its function response carries.
 * Calls whose id is new keep it unchanged, so histories without reuse see no difference.
 */
export function adoptCallIds(state: PromptState, calls: FunctionCall[]): void {
  const taken = new Set<string>();
  for (const call of calls) {
    if (state.book.calls.has(call.id) || taken.has(call.id)) {
      if (!isPatched(PATCHES.freshCallIds)) return;
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
