/**
 * One line typed into `chat`, classified. Lines starting with `/` are commands; `//` sends a message starting with `/`.
 */
export type ChatLine =
  | { kind: 'empty' }
  | { kind: 'message'; text: string }
  | { kind: 'steer'; text: string }
  | { kind: 'status' | 'close' | 'quit' | 'help' | 'clear' | 'compress' }
  | { kind: 'rewind'; turn?: number }
  | { kind: 'restore'; name?: string }
  | { kind: 'bad'; message: string };

const BARE = ['status', 'close', 'quit', 'help', 'clear', 'compress'] as const;

export function parseChatLine(line: string): ChatLine {
  const text = line.trim();
  if (!text) return { kind: 'empty' };
  if (text.startsWith('//')) return { kind: 'message', text: text.slice(1) };
  if (!text.startsWith('/')) return { kind: 'message', text };
  const [, name = '', rest = ''] = /^\/(\S*)\s*([\s\S]*)$/.exec(text) ?? [];
  if (name === 'steer')
    return rest.trim()
      ? { kind: 'steer', text: rest.trim() }
      : { kind: 'bad', message: '/steer needs the text to send, as in `/steer use the other file`' };
  if (name === 'rewind') return rewindLine(rest.trim());
  if (name === 'restore') {
    const [first, ...more] = rest.trim().split(/\s+/).filter(Boolean);
    if (more.length > 0) return { kind: 'bad', message: '/restore takes one tool call, as /restore lists them' };
    return first ? { kind: 'restore', name: first } : { kind: 'restore' };
  }
  const bare = BARE.find((b) => b === name || (b === 'quit' && name === 'exit'));
  if (!bare) return { kind: 'bad', message: `unknown command /${name}; type /help for the commands` };
  if (rest.trim()) return { kind: 'bad', message: `/${name} takes no argument` };
  return { kind: bare };
}

/** `/rewind` lists the turns; `/rewind N` goes back to turn N (a whole number from 1). */
function rewindLine(arg: string): ChatLine {
  if (!arg) return { kind: 'rewind' };
  if (!/^[1-9]\d{0,8}$/.test(arg))
    return {
      kind: 'bad',
      message: `/rewind takes a turn number from 1 (as /rewind lists them), not ${JSON.stringify(arg)}`,
    };
  return { kind: 'rewind', turn: Number(arg) };
}

export const CHAT_HELP = [
  'Each line is the session’s next message. While a prompt runs, a line typed is queued as the',
  'message after it.',
  '  /steer TEXT  hand TEXT to the running prompt, with its next model request',
  '  /status      where the session stands',
  '  /clear       start a fresh conversation in the same session (once its prompts have ended)',
  '  /compress    compress the conversation now (once its prompts have ended)',
  '  /rewind      list the turns and what each changed; /rewind N takes files and conversation back to turn N',
  '  /restore     list the checkpointed tool calls; /restore NAME goes back to just before that call',
  '  /close       close the session (its queued messages still run), then leave',
  '  /quit        leave; the session stays open: `durable-agent chat ID` resumes it (also Ctrl-D)',
  '  /help        this list',
  '  //text       send a message that starts with /',
  'Ctrl-C cancels the running prompt; a second Ctrl-C (or one while nothing runs) leaves.',
].join('\n');
