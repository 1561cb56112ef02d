/**
 * Chat's slash commands, run when a prompt starts with one: the same parsing as `chat`, the
 * outcome told as the answer's text. Leaving and closing belong to the editor, not to a command.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { AgentClient } from '../client';
import { parseChatLine } from '../client/chat-commands';
import { COMMANDS } from './modes';
import type { AcpSession } from './session';

/** The command's answer, or undefined when the text is a message (also `//text`, sent as `/text`). */
export async function runSlashCommand(
  session: AcpSession,
  text: string,
  deps: { client: AgentClient; statusText(sessionId: string, started: boolean): Promise<string> },
): Promise<string | undefined> {
  if (!text.trimStart().startsWith('/')) return undefined;
  const line = parseChatLine(text);
  switch (line.kind) {
    case 'message':
    case 'empty':
      return undefined;
    case 'status':
      return deps.statusText(session.id, !session.defaults);
    case 'clear':
    case 'compress':
      return deps.client.chatCommand({ id: session.id, started: !session.defaults }, line.kind);
    case 'help':
      return COMMANDS.map((c) => `/${c.name}  ${c.description}`).join('\n');
    case 'bad':
      return line.message.replace('type /help', 'send /help');
    case 'rewind':
    case 'restore':
      return `/${line.kind} runs in \`durable-agent chat ${session.id}\` (or \`durable-agent rewind ${session.id}\`)`;
    default:
      return `/${line.kind} is the editor's to do here: close the session from the editor`;
  }
}

export const commandsUpdate: SessionUpdate = {
  sessionUpdate: 'available_commands_update',
  availableCommands: COMMANDS,
};
