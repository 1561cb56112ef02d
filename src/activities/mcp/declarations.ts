import type { TranscriptStore } from '../../store/types';
import type { FunctionDeclaration } from '../../tools';

/**
 * The request with the discovered MCP declarations (stored by discovery, named in the frame by
 * reference) added to its own, those of tools the request offers only: hooks and the mode may have
 * left some out of `toolNames`.
 */
export async function withMcpDeclarations<
  T extends { toolNames: string[]; extraDeclarations?: FunctionDeclaration[]; mcpDeclarationsRef?: string },
>(store: TranscriptStore, input: T): Promise<T> {
  if (!input.mcpDeclarationsRef) return input;
  const all = JSON.parse(await store.getBlob(input.mcpDeclarationsRef)) as FunctionDeclaration[];
  const offered = new Set(input.toolNames);
  const mcp = all.filter((d) => offered.has(d.name));
  return { ...input, extraDeclarations: [...(input.extraDeclarations ?? []), ...mcp] };
}
