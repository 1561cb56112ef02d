import { UNTRUSTED_TAG } from '../../src/core/untrusted';

/**
 * Each topic a model tuned on Gemini CLI's system prompt expects, and text that shows our prompt covers
 * it. Shared by the prompt's unit test and the comparison with Gemini CLI's recorded requests.
 */
export const PROMPT_TOPICS: Record<string, RegExp[]> = {
  'core mandates: project conventions': [/# Core mandates/, /conventions/i],
  'core mandates: check libraries before using them': [/never assume a library/i, /package\.json/],
  'core mandates: idiomatic changes': [/Idiomatic changes/],
  'core mandates: comments sparingly': [/comments[^\n]*\n?[^\n]*sparingly/i],
  'core mandates: no reverts unasked': [/No reverts unasked/],
  'core mandates: confirm ambiguity': [/Ambiguity/, /ask before you act/],
  'security and untrusted content': [/# Security and untrusted content/, new RegExp(`<${UNTRUSTED_TAG} source=`)],
  'context efficiency': [/# Context efficiency/, /in parallel/i],
  'engineering standards': [/# Engineering standards/, /Tests are part of the change/],
  'software-engineering workflow': [/Understand\./, /Plan\./, /Implement\./, /Verify with tests\./, /lint/],
  'new-application workflow': [/# New applications/, /Scaffold/],
  'tone and brevity': [/# Tone and style/, /concise/],
  'explaining critical commands': [/# Explaining critical commands/, /before you run a command/i],
  'tool usage: paths, parallel reads, non-interactive, quiet, no pagers, background': [
    /# Using the tools/,
    /\*\*Paths:\*\*/,
    /run together/,
    /non-interactive/,
    /quiet flags/i,
    /never a pager/,
    /is_background: true/,
  ],
  'git practice': [/# Git/, /git status/, /git diff HEAD/, /git log -n 3/, /Never push/],
  'sub-agents': [/# Sub-agents/, /invoke_agent/],
  skills: [/# Skills/, /activate_skill/],
  'hook context': [/# Hook context/, /<hook_context>/],
};

/** The plan-mode variant, which replaces the engineering workflows when a prompt runs in plan mode. */
export const PLAN_MODE_TOPIC: RegExp[] = [/# Plan mode/, /exit_plan_mode/];

/** Confirming an ambiguity in a run nobody follows: choose a reading and say which, instead of asking. */
export const UNATTENDED_AMBIGUITY: RegExp[] = [/\*\*Ambiguity:\*\*/, /state it in your answer/, /# Unattended run/];
