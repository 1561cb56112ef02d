import type { ScriptLine } from './script';

/**
 * By-turn serving: a `generateContentStream` request gets the stream line whose position (among the
 * script's stream lines) is the number of `model` messages in its `contents`, that is, the model turn
 * the conversation has reached. The answer depends on the request only, never on how many requests
 * came before, so a request retried after a crash (same conversation) gets the same answer.
 */
export function lineForTurn(lines: ScriptLine[], body: unknown): { turn: number; line?: ScriptLine } {
  const turn = modelTurns(body);
  const streams = lines.filter((line) => line.method === 'generateContentStream');
  return { turn, line: streams[turn] };
}

function modelTurns(body: unknown): number {
  const contents = (body as { contents?: unknown } | null)?.contents;
  if (!Array.isArray(contents)) return 0;
  return contents.filter((c) => (c as { role?: unknown } | null)?.role === 'model').length;
}
