import type { PromptState } from '../state/prompt-state';

/**
 * The run's context (steering, compression, token budget, known files, memory) and hook bookkeeping, written only
 * here: the guards and hooks that own the logic call these.
 */

export function addSteering(state: PromptState, text: string): void {
  state.context.steering.push(text);
}

/** The steering messages waiting, which leave the state. */
export function takeSteering(state: PromptState): string[] {
  return state.context.steering.splice(0);
}

export function requestCompression(state: PromptState): void {
  state.context.forceCompress = true;
}

/** A compression starts: a request for one is answered, and it is counted. */
export function compressionStarted(state: PromptState): void {
  state.context.forceCompress = false;
  state.context.compressions += 1;
}

export function setCompressionFailed(state: PromptState, failed: boolean): void {
  state.context.compressionFailed = failed;
}

export function setLastPromptTokens(state: PromptState, tokens: number): void {
  state.context.lastPromptTokens = tokens;
}

export function raiseTokenBudget(state: PromptState, tokens: number): void {
  (state.context.tokenBudget as number) += tokens;
}

export function raiseCostLimit(state: PromptState, usd: number): void {
  (state.context.costLimitUsd as number) += usd;
}

/** A person said stop at the spending limit: no request is sent any more. */
export function stopSpending(state: PromptState): void {
  state.costStopped = true;
}

export function setKnownFiles(state: PromptState, known: PromptState['context']['knownFiles']): void {
  state.context.knownFiles = known;
}

export function setSkills(state: PromptState, skills: PromptState['context']['skills']): void {
  state.context.skills = skills;
}

export function setMemoryRef(state: PromptState, memoryRef: PromptState['context']['memoryRef']): void {
  state.context.memoryRef = memoryRef;
}

/** A hook said to stop, for this reason. */
export function hookStop(state: PromptState, reason: string): void {
  state.hooks.stop = reason;
}

export function hooksBegan(state: PromptState): void {
  state.hooks.began = true;
}

/** AfterAgent blocked: the prompt goes on with the reason as its new prompt. */
export function hooksContinueWith(state: PromptState, prompt: string): void {
  Object.assign(state.hooks, { prompt, stopHookActive: true });
}

/** A hook cleared the context: the count names the fresh transcript. */
export function hooksCleared(state: PromptState): number {
  state.hooks.clears += 1;
  return state.hooks.clears;
}
