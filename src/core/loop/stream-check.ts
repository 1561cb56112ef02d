import type { StreamChunk } from '../assemble-turn';
import { createLoopState, observeContent } from './detection';
import type { ContentTracking, LoopDetection, LoopState } from './types';

/**
 * Level 2 on a stream, where Gemini CLI runs it: each chunk's text is checked as it arrives, from the
 * tracking the workflow had before the request, so a chanting model is stopped mid-answer instead of
 * after spending its output budget. A function call restarts the tracking, as a tool call does in the
 * workflow. Returns a checker to call once per chunk; its first detection is the one to act on.
 */
export function streamContentCheck(content: ContentTracking): (chunk: StreamChunk) => LoopDetection | undefined {
  let state: LoopState = { ...createLoopState(), content };
  return (chunk) => {
    let text = '';
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      if (part.functionCall) {
        const seen = text ? observeContent(state, [text]) : { state };
        if (seen.detection) return seen.detection;
        state = { ...seen.state, content: { text: '', next: 0, inCodeBlock: seen.state.content.inCodeBlock } };
        text = '';
      } else if (!part.thought && typeof part.text === 'string') text += part.text;
    }
    if (!text) return undefined;
    const seen = observeContent(state, [text]);
    state = seen.state;
    return seen.detection;
  };
}
