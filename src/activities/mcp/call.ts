import { Context } from '@temporalio/activity';
import { previewOf } from '../tool-preview';
import { MCP_DEFAULT_TIMEOUT_MS, type McpServerConfig } from '../../core/mcp';
import type { ToolOutcome } from '../../core/types';
import { resolveBlobMarkers } from '../../store/blobs';
import type { TranscriptStore } from '../../store/types';
import { truncateOutput } from '../../tools/truncate';
import { withHeartbeat } from '../heartbeat';
import { fenceUntrusted } from '../../core/untrusted';
import { describe } from './discover';
import type { McpPool, McpTarget } from './pool';
import { resourceText, type ResourceServers } from './resources';

export interface CallMcpToolInput {
  callId: string;
  /** The name the model called (`mcp_<server>_<tool>`). */
  name: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  config: McpServerConfig;
  args: Record<string, unknown>;
  workspace: string;
  /** The server marked the tool read-only: a retry after a crash may run it again. */
  readOnly: boolean;
  /** For the resource tools (`server` empty): the servers that offer resources. */
  resourceServers?: ResourceServers;
}

/**
 * One MCP tool call through the worker's pool, heartbeating while the server works. Whatever the
 * server does (an error result, a malformed result, a timeout, a dropped connection) is an error
 * result for the model; only the store can fail the activity. A call that is not read-only and
 * whose earlier attempt was cut off by a crash is not sent again: its outcome is reported unknown
 * (invariant 7).
 */
export async function callMcpTool(
  deps: { pool: McpPool; store: TranscriptStore; heartbeatIntervalMs: number },
  input: CallMcpToolInput,
): Promise<ToolOutcome> {
  const ctx = Context.current();
  if (ctx.info.attempt > 1 && !input.readOnly) {
    return outcome(deps.store, input, false, interruptedMessage(input), 'outcome_unknown');
  }
  const timeoutMs = input.config.timeout ?? MCP_DEFAULT_TIMEOUT_MS;
  const target: McpTarget = { server: input.server, config: input.config, workspace: input.workspace, timeoutMs };
  const args = await resolveBlobMarkers(input.args, deps.store);
  return withHeartbeat(deps.heartbeatIntervalMs, async () => {
    if (input.resourceServers) {
      const text = await resourceText(deps.pool, input.resourceServers, input.workspace, input.tool, args).then(
        (t) => ({ ok: true, t }),
        (err: Error) => ({ ok: false, t: `${input.tool} failed: ${describe(err)}` }),
      );
      const shown = text.ok ? fenceUntrusted('mcp', text.t) : text.t;
      return outcome(deps.store, input, text.ok, shown, text.ok ? undefined : 'mcp_tool_error');
    }
    try {
      const client = await deps.pool.client(target);
      const options = { timeout: timeoutMs, signal: ctx.cancellationSignal };
      const result = await client.callTool({ name: input.tool, arguments: args }, undefined, options);
      // What a server returns is its own text, not the user's: it reaches the model fenced.
      const text = contentText(result.content as unknown[]);
      if (result.isError) {
        const error = text ? fenceUntrusted('mcp', text) : 'The MCP tool reported an error.';
        return outcome(deps.store, input, false, error, 'mcp_tool_error');
      }
      return outcome(deps.store, input, true, fenceUntrusted('mcp', text));
    } catch (err) {
      // The connection may be the problem: the next call connects again.
      await deps.pool.drop(target);
      const message = `MCP server "${input.server}" failed on tool "${input.tool}": ${describe(err)}`;
      return outcome(deps.store, input, false, message, 'execution_failed');
    }
  });
}

/** The parts of a result as text: text as it is, other kinds named (the model cannot use their bytes here). */
function contentText(content: unknown[] | undefined): string {
  return (content ?? [])
    .map((part) => {
      const p = part as {
        type?: string;
        text?: string;
        mimeType?: string;
        uri?: string;
        resource?: { text?: string; uri?: string };
      };
      if (p.type === 'text') return p.text ?? '';
      if (p.type === 'resource') return p.resource?.text ?? `[resource ${p.resource?.uri ?? ''}]`;
      if (p.type === 'resource_link') return `[resource link ${p.uri ?? ''}]`;
      return `[${p.type ?? 'unknown'} content${p.mimeType ? ` ${p.mimeType}` : ''}]`;
    })
    .join('\n');
}

function interruptedMessage(input: CallMcpToolInput): string {
  return (
    `The worker stopped while MCP tool "${input.tool}" of server "${input.server}" was running, so whether it ` +
    `took effect is unknown. It was not run again; check its effect before calling it again.`
  );
}

async function outcome(
  store: TranscriptStore,
  input: CallMcpToolInput,
  ok: boolean,
  text: string,
  errorKind?: string,
): Promise<ToolOutcome> {
  const response = ok ? { output: truncateOutput(text) } : { error: text };
  return {
    callId: input.callId,
    name: input.name,
    ok,
    responseRef: await store.putBlob(JSON.stringify(response)),
    preview: previewOf(text),
    ...(ok ? {} : { errorKind }),
  };
}
