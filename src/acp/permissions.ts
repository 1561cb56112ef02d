/**
 * Calls awaiting approval, asked in the editor with `session/request_permission`, and `ask_user`
 * questions (src/acp/questions.ts). The prompt, not this process, holds the question: an answer
 * given anywhere else (`durable-agent approve` or `answer`, the `temporal` CLI, another editor)
 * decides the call, and the editor's request is then withdrawn (`$/cancel_request`, through the
 * request's cancellation signal).
 */
import type { PermissionOption, SessionUpdate, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../core/events';
import type { EditorChannel } from './channel';
import { askQuestions } from './questions';
import { toolCall } from './updates';

/** Where a prompt's questions go: the editor's channel, for one prompt of one session. */
export type PermissionTarget = EditorChannel & { sessionId: string; promptId: string; workspace: string };

/** How often the prompt is asked which calls still wait, while the editor has some open. */
const WAITING_CHECK_MS = 300;

/** Our approval outcomes, as the editor's options; ids are the outcomes themselves. */
export function permissionOptions(name: string): PermissionOption[] {
  const options: PermissionOption[] = [
    { optionId: 'proceed_once', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'proceed_always', name: 'Allow always (this prompt)', kind: 'allow_always' },
  ];
  if (name.startsWith('mcp_'))
    options.push({ optionId: 'proceed_always_server', name: 'Allow this MCP server always', kind: 'allow_always' });
  options.push({ optionId: 'cancel', name: 'Reject', kind: 'reject_once' });
  return options;
}

export class PermissionBridge {
  private readonly open = new Map<string, AbortController>();
  private watching = false;

  constructor(private readonly target: PermissionTarget) {}

  onEvent(event: AgentEvent): void {
    if (event.type === 'tool_call_awaiting_approval') void this.ask(event.callId, event.name, event.args);
    if (event.type === 'question_asked') void this.askQuestion(event.callId, event.questions);
    if (event.type === 'tool_call_response') this.withdraw(event.callId);
  }

  /** Withdraws every open request (the prompt ended, or the editor left). */
  close(): void {
    for (const callId of [...this.open.keys()]) this.withdraw(callId);
  }

  private async ask(callId: string, name: string, args: unknown): Promise<void> {
    if (this.open.has(callId)) return;
    const call = callOf(toolCall(this.target.workspace, callId, name, args));
    const withdrawn = new AbortController();
    this.open.set(callId, withdrawn);
    this.watch();
    try {
      const request = { sessionId: this.target.sessionId, toolCall: call, options: permissionOptions(name) };
      const response = await this.target.ask(request, withdrawn.signal);
      if (withdrawn.signal.aborted || response.outcome.outcome !== 'selected') return;
      await this.decide(callId, response.outcome.optionId, response.outcome._meta?.reason);
    } catch (err) {
      if (!withdrawn.signal.aborted) this.target.logger.warn({ err: String(err), callId }, 'permission request failed');
    } finally {
      this.open.delete(callId);
    }
  }

  private async askQuestion(callId: string, questions: unknown): Promise<void> {
    if (this.open.has(callId)) return;
    const withdrawn = new AbortController();
    this.open.set(callId, withdrawn);
    this.watch();
    try {
      await askQuestions(this.target, callId, questions, withdrawn.signal);
    } catch (err) {
      if (!withdrawn.signal.aborted)
        this.target.logger.warn({ err: String(err), callId }, 'asking the question failed');
    } finally {
      if (this.open.get(callId) === withdrawn) this.open.delete(callId);
    }
  }

  /** The editor's choice; one the prompt refuses (decided meanwhile elsewhere) changes nothing. */
  private async decide(callId: string, optionId: string, reason: unknown): Promise<void> {
    const { client, promptId, logger } = this.target;
    const decided =
      optionId === 'cancel'
        ? client.deny(promptId, callId, typeof reason === 'string' ? reason : undefined)
        : client.approve(promptId, callId, optionId as 'proceed_once' | 'proceed_always' | 'proceed_always_server');
    await decided.catch((err: unknown) => logger.info({ err: String(err), callId }, 'the call was not decided'));
  }

  private withdraw(callId: string): void {
    this.open.get(callId)?.abort();
    this.open.delete(callId);
  }

  /** While requests are open, withdraws those whose call was decided elsewhere. */
  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    void (async () => {
      try {
        while (this.open.size > 0) {
          await new Promise((resolve) => setTimeout(resolve, WAITING_CHECK_MS));
          // The prompt's own query, not `status`: that also describes the run and its host queue, and when no worker
          // answers in time it reports no pending calls, which would withdraw every open request.
          const status = await this.target.client.state(this.target.promptId).catch(() => undefined);
          if (!status) continue;
          const waiting = new Set(
            [...status.pendingApprovals, ...(status.pendingQuestions ?? [])].map((c) => c.callId),
          );
          for (const callId of [...this.open.keys()]) if (!waiting.has(callId)) this.withdraw(callId);
        }
      } finally {
        this.watching = false;
      }
    })();
  }
}

/** A `tool_call` update's fields, as a permission request names the call. */
function callOf(update: SessionUpdate): ToolCallUpdate {
  const fields: Partial<SessionUpdate> = { ...update };
  delete fields.sessionUpdate;
  return fields as ToolCallUpdate;
}
