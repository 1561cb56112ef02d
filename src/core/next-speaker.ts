import type { Content, Part } from '@google/genai';

/** The user message the workflow sends when the model should go on (Gemini CLI's text). */
export const CONTINUE_TEXT = 'Please continue.';

/** `ask`: the fast paths cannot tell, so the model is asked. */
export type FastPathAnswer = 'user' | 'model' | 'ask';

export interface FastPathDecision {
  next: FastPathAnswer;
  reasoning: string;
}

/**
 * Gemini CLI's fast paths, in its order, on the transcript as recorded (its "comprehensive"
 * history) and as sent to the model (`curatedHistory`): nothing to judge → user; the last message
 * is tool results, or an empty model turn → model; the last message kept is not the model's → user.
 * Everything else needs one model call.
 */
export function nextSpeakerFastPath(history: Content[]): FastPathDecision {
  const curated = curatedHistory(history);
  if (curated.length === 0) return { next: 'user', reasoning: 'There is no conversation to judge.' };
  const last = history[history.length - 1];
  if (isFunctionResponse(last))
    return { next: 'model', reasoning: 'The last message holds tool results, so the model speaks next.' };
  if (last.role === 'model' && last.parts?.length === 0) {
    return { next: 'model', reasoning: 'The last model message is empty, so there is nothing for the user to answer.' };
  }
  if (curated[curated.length - 1].role !== 'model')
    return { next: 'user', reasoning: 'The last valid message is not from the model.' };
  return { next: 'ask', reasoning: '' };
}

/**
 * The history Gemini CLI sends to the model: user turns always; each run of consecutive model turns
 * only if every one of them is valid (an empty part list counts as valid, missing parts do not).
 */
export function curatedHistory(history: Content[]): Content[] {
  const curated: Content[] = [];
  let i = 0;
  while (i < history.length) {
    if (history[i].role !== 'model') {
      curated.push(history[i++]);
      continue;
    }
    const run: Content[] = [];
    while (i < history.length && history[i].role === 'model') run.push(history[i++]);
    if (run.every(isValidModelContent)) curated.push(...run);
  }
  return curated;
}

function isValidModelContent(content: Content): boolean {
  if (content.parts === undefined) return false;
  return content.parts.every((part) => Object.keys(part).length > 0 && !isEmptyTextPart(part));
}

/** A non-thought part whose only payload is `text: ''`. */
function isEmptyTextPart(part: Part): boolean {
  return part.text === '' && !part.thought && Object.keys(part).every((key) => key === 'text' || key === 'thought');
}

/** A user turn whose non-thought parts are all function responses. */
export function isFunctionResponse(content: Content): boolean {
  if (content.role !== 'user') return false;
  const parts = (content.parts ?? []).filter((p) => !p.thought);
  return parts.length > 0 && parts.every((p) => p.functionResponse !== undefined);
}
