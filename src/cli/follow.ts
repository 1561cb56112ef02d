import type { Client } from '@temporalio/client';
import { followEvents } from '../client';
import type { AgentEvent } from '../core/events';
import { openLiveStream } from '../store/open-live';
import type { Printer } from './output';

/**
 * Follows a prompt to its end: its events from the workflow, and its model output as it streams
 * from the live side channel of the configured store (files under the agent's home, or
 * PostgreSQL), so a watcher on any machine that shares the store sees text as it is generated.
 */
export async function followPrompt(
  config: { home: string; storeUrl?: string },
  client: Client,
  workflowId: string,
  printer: Printer,
  onEvent?: (event: AgentEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const { live, close } = await openLiveStream(config);
  try {
    await followEvents(
      client,
      workflowId,
      (event) => {
        printer.event(event);
        onEvent?.(event);
      },
      { signal, live: live && { stream: live, onPiece: (piece) => printer.piece(piece) } },
    );
  } finally {
    await close();
  }
}
