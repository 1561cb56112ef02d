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

/**
 * A script resumed for a conversation that has already reached a model turn (a worker serving a
 * scripted prompt again after a crash): the lines from that turn's stream line on. The position
 * comes from the request, that is from the workflow's own conversation, so it survives any process.
 */
export function linesFromTurn(lines: ScriptLine[], body: unknown): ScriptLine[] {
  const turn = modelTurns(body);
  if (turn === 0) return lines;
  let streams = 0;
  const at = lines.findIndex((line) => line.method === 'generateContentStream' && streams++ === turn);
  return at < 0 ? [] : lines.slice(at);
}

function modelTurns(body: unknown): number {
  const contents = (body as { contents?: unknown } | null)?.contents;
  if (!Array.isArray(contents)) return 0;
  return contents.filter((c) => (c as { role?: unknown } | null)?.role === 'model').length;
}
