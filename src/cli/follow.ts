import { followEvents, type Client } from '../client';
import type { AgentEvent } from '../core/events';
import { openLiveStream } from '../store/open-live';
import { openArgsStore, withFullArgs } from './full-args';
import type { Printer } from './output';

/**
 * Follows a prompt to its end: its events from the workflow, and its model output as it streams
 * from the live side channel of the configured store (files under the agent's home, or
 * PostgreSQL), so a watcher on any machine that shares the store sees text as it is generated.
 * Calls' arguments are shown in full, read from the same store (see full-args); events and pieces
 * are handed on in the order they came, one after another.
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
  const args = openArgsStore(config);
  let order: Promise<void> = Promise.resolve();
  let failure: { err: unknown } | undefined;
  const inOrder = (step: () => void | Promise<void>) =>
    void (order = order.then(step).catch((err: unknown) => void (failure ??= { err })));
  try {
    const onFullEvent = async (event: AgentEvent) => {
      const shown = await withFullArgs(event, args.store);
      printer.event(shown);
      onEvent?.(shown);
    };
    await followEvents(client, workflowId, (event) => inOrder(() => onFullEvent(event)), {
      signal,
      live: live && { stream: live, onPiece: (piece) => inOrder(() => printer.piece(piece)) },
    });
    await order;
    if (failure) throw failure.err;
  } finally {
    await order;
    await close();
    await args.close();
  }
}
