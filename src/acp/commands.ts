/**
 * Chat's slash commands, run when a prompt starts with one: the same parsing as `chat`, the
 * outcome told as the answer's text. Leaving and closing belong to the editor, not to a command.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { failureText, type AgentClient } from '../client';
import { parseChatLine } from '../cli/chat-commands';
import { sessionStatusText } from '../cli/chat-status';
import { compressionMessage } from '../core/compression-message';
import { COMMANDS } from './modes';
import type { AcpSession } from './session';

/** The command's answer, or undefined when the text is a message (also `//text`, sent as `/text`). */
export async function runSlashCommand(
  session: AcpSession,
  text: string,
  client: AgentClient,
): Promise<string | undefined> {
  if (!text.trimStart().startsWith('/')) return undefined;
  const line = parseChatLine(text);
  switch (line.kind) {
    case 'message':
    case 'empty':
      return undefined;
    case 'status':
      return sessionStatusText({ client: client.temporal, id: session.id, started: !session.defaults });
    case 'clear':
      if (!session.defaults) await client.clearSession(session.id);
      return 'Conversation cleared: the next message starts afresh.';
    case 'compress':
      return compress(session, client);
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

async function compress(session: AcpSession, client: AgentClient): Promise<string> {
  if (session.defaults) return 'Nothing to compress.';
  try {
    const r = await client.compressSession(session.id);
    return compressionMessage(r.status, r.originalTokens, r.newTokens);
  } catch (err) {
    return `Failed to compress chat history: ${failureText(err)}`;
  }
}

export const commandsUpdate: SessionUpdate = {
  sessionUpdate: 'available_commands_update',
  availableCommands: COMMANDS,
};
