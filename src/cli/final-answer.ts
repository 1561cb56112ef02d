import type { AgentEvent } from '../core/events';

/**
 * The `response` of `-o json`, as Gemini CLI 0.61.0 gives it: the text the model wrote after its
 * last tool call, not every turn's text joined. A text written alongside a tool call is what the model
 * said while working; it becomes the answer only when a hook stopped the prompt before any later text.
 */
export function finalAnswerTracker() {
  let answer = '';
  let beforeTools: string | undefined;
  let seen = false;
  return {
    event(e: AgentEvent): void {
      if (e.type === 'content') {
        seen = true;
        answer += e.text;
      } else if (e.type === 'tool_call_request') {
        beforeTools = answer || beforeTools;
        answer = '';
      } else if (e.type === 'agent_execution_stopped' && !answer && beforeTools) {
        answer = beforeTools;
      }
    },
    /** `joined` is the prompt's whole text, for a run whose events were not all seen. */
    answer(joined: string | undefined): string {
      return seen ? answer : (joined ?? '');
    },
  };
}
