/** The policy engine: pure, run in the workflow on rules passed in as data. */
export * from './types';
export { defaultPolicy, isPlanFile, READ_ONLY_TOOLS, EDIT_TOOLS } from './defaults';
export {
  evaluatePolicy,
  sessionAllowRule,
  stableArgsJson,
  effectivePriority,
  type PolicyCall,
  type PolicyContext,
  type ShellNarrowing,
} from './engine';
export { splitShellCommand, rootCommands, commandPrefixes, type ShellCommand, type ShellSplit } from './shell-split';
