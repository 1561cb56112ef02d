import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { describeIssues } from '../core/confirmation';
import { hooksConfigSchema, HOOK_EVENTS, type HooksConfig } from '../core/hooks/types';
import type { EnvRedaction } from '../activities/env-filter';
import { ConfigFileError } from './errors';
import type { WebSettings } from '../core/web';

/**
 * Gemini CLI's `settings.json` format, read at the process edge: the user's `<home>/settings.json`
 * and the workspace's `.durable-agent/settings.json` (only given for a trusted workspace), each read
 * once per command (`readSettingsFiles`); every section is then taken from that one reading. A file
 * that is not JSON, or whose sections do not validate, stops the CLI (exit 52) with a message naming
 * the file and the problem.
 */

export class SettingsFileError extends ConfigFileError {
  override name = 'SettingsFileError';

  constructor(message: string) {
    super('settingsFile', message);
  }
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const fileName = z.string().trim().min(1, 'must not be empty');

const settingsSchema = z.looseObject({
  /** Gemini CLI's key: the context file names, one or a list (`["AGENTS.md", "GEMINI.md"]`). */
  context: z
    .looseObject({ fileName: z.union([fileName, z.array(fileName).min(1, 'must name at least one file')]).optional() })
    .optional(),
  hooks: hooksConfigSchema.optional(),
  hooksConfig: z
    .looseObject({
      enabled: z.boolean().optional(),
      /** Hook names (or commands) switched off. */
      disabled: z.array(z.string()).optional(),
    })
    .optional(),
  /** Ours (Gemini CLI has no such setting): private addresses for `web_fetch`, user file only. */
  webFetch: z.looseObject({ allowPrivateAddresses: z.boolean().optional() }).optional(),
  security: z
    .looseObject({
      /** Gemini CLI's key: which variables of the worker's environment commands and hooks may see. */
      environmentVariableRedaction: z
        .looseObject({
          allowed: z.array(z.string().regex(ENV_NAME, 'must be an environment variable name')).optional(),
          blocked: z.array(z.string().regex(ENV_NAME, 'must be an environment variable name')).optional(),
        })
        .optional(),
    })
    .optional(),
});

type Settings = z.infer<typeof settingsSchema>;

/** The settings files to read; no `workspaceFile` for an untrusted workspace. */
export interface SettingsFiles {
  workspaceFile?: string;
  userFile: string;
}

/** One settings file as read: where it is and what it says. */
export interface SettingsFile {
  file: string;
  settings: Settings;
}

/** A command's settings files, each read once; a file that does not exist is absent. */
export interface LoadedSettings {
  user?: SettingsFile;
  workspace?: SettingsFile;
}

/** Reads the user's file, then the workspace's: the one reading every section is taken from. */
export async function readSettingsFiles(files: SettingsFiles): Promise<LoadedSettings> {
  const read = async (file: string | undefined): Promise<SettingsFile | undefined> => {
    const settings = file === undefined ? undefined : await readSettings(file);
    return settings === undefined ? undefined : { file: file!, settings };
  };
  const user = await read(files.userFile);
  const workspace = await read(files.workspaceFile);
  return { ...(user && { user }), ...(workspace && { workspace }) };
}

/** The files in the order Gemini CLI merges them: the user's, then the workspace's (which wins). */
export function inMergeOrder(loaded: LoadedSettings): SettingsFile[] {
  return [loaded.user, loaded.workspace].filter((f): f is SettingsFile => f !== undefined);
}

/** The hooks of both files, workspace first; undefined when none is configured (or all are off). */
export function hookSettings(loaded: LoadedSettings): HooksConfig | undefined {
  const all = inMergeOrder(loaded)
    .reverse()
    .map((f) => f.settings);
  if (all.some((s) => s.hooksConfig?.enabled === false)) return undefined;
  const disabled = new Set(all.flatMap((s) => s.hooksConfig?.disabled ?? []));
  const merged: HooksConfig = {};
  for (const event of HOOK_EVENTS) {
    const definitions = all
      .flatMap((s) => s.hooks?.[event] ?? [])
      .map((d) => ({ ...d, hooks: d.hooks.filter((h) => !disabled.has(h.name ?? '') && !disabled.has(h.command)) }))
      .filter((d) => d.hooks.length > 0);
    if (definitions.length > 0) merged[event] = definitions;
  }
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/**
 * `security.environmentVariableRedaction` of the user's settings file. Only the user's: a
 * workspace must not widen what its own commands can read of the worker's environment.
 */
export function envRedaction(loaded: LoadedSettings): EnvRedaction {
  const redaction = loaded.user?.settings.security?.environmentVariableRedaction;
  return { allowed: redaction?.allowed ?? [], blocked: redaction?.blocked ?? [] };
}

/**
 * `webFetch` of the user's settings file. Only the user's: a workspace must not open the user's
 * private network to a model reading untrusted pages.
 */
export function webSettings(loaded: LoadedSettings): WebSettings | undefined {
  const allow = loaded.user?.settings.webFetch?.allowPrivateAddresses;
  return allow ? { allowPrivateAddresses: true } : undefined;
}

/**
 * `context.fileName` of the settings, the workspace's over the user's (Gemini CLI merges them so);
 * undefined when neither sets it (the default, `GEMINI.md`). A name must be a plain file name.
 */
export function contextFileNames(loaded: LoadedSettings): string[] | undefined {
  for (const { file, settings } of inMergeOrder(loaded).reverse()) {
    const value = settings.context?.fileName;
    if (value === undefined) continue;
    const names = typeof value === 'string' ? [value] : value;
    const bad = names.find((name) => name.includes('/') || name.includes('\\') || name === '.' || name === '..');
    if (bad !== undefined) throw new SettingsFileError(`${file}: context.fileName: "${bad}" is not a file name`);
    return [...new Set(names)];
  }
  return undefined;
}

/** One section from its own reading of the files, for a caller that needs only that one. */
export function readingOnly<T>(section: (loaded: LoadedSettings) => T): (files: SettingsFiles) => Promise<T> {
  return async (files) => section(await readSettingsFiles(files));
}

export const loadHookSettings = readingOnly(hookSettings);
export const loadContextFileNames = readingOnly(contextFileNames);
export const loadEnvRedaction = async (userFile: string) => envRedaction(await readSettingsFiles({ userFile }));
export const loadWebSettings = async (userFile: string) => webSettings(await readSettingsFiles({ userFile }));

async function readSettings(file: string): Promise<Settings | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SettingsFileError(`${file}: cannot be read: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new SettingsFileError(`${file}: not valid JSON: ${(err as Error).message}`);
  }
  const parsed = settingsSchema.safeParse(json);
  if (!parsed.success) throw new SettingsFileError(`${file}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
