import type { Harness } from './agent-harness';

/** Writes an earlier conversation of plain user prompts to transcript `id`: compression has somewhere to split. */
export async function earlierConversation(h: Pick<Harness, 'store'>, id: string): Promise<number> {
  const filler = 'Some earlier discussion of the code base and the plan. '.repeat(40);
  for (let i = 0; i < 6; i++) {
    await h.store.writeMessage(id, i * 2, { role: 'user', parts: [{ text: `Earlier request ${i}: ${filler}` }] });
    await h.store.writeMessage(id, i * 2 + 1, { role: 'model', parts: [{ text: `Earlier answer ${i}: ${filler}` }] });
  }
  return 12;
}
