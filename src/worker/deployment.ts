import type { Config } from '../config/env';
import { ConfigError } from '../config/errors';

/**
 * Worker Deployment Versioning: a worker started with `--deployment NAME --build-id ID` (or
 * `DURABLE_AGENT_DEPLOYMENT` and `DURABLE_AGENT_BUILD_ID`) polls as that version of the deployment.
 * Its workflows are pinned by default: a prompt (and its sub-agents) finishes on the build that started
 * it. The session workflow asks for auto-upgrade, so its next prompt starts on the deployment's current
 * version. Without both names the worker is unversioned, as before.
 */
export interface DeploymentVersion {
  deploymentName: string;
  buildId: string;
}

let version: DeploymentVersion | undefined;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Reads the flags (which win) or the environment; one without the other is refused. */
export function useDeployment(
  flags: { deployment?: string; buildId?: string },
  env: Config['deployment'],
): DeploymentVersion | undefined {
  const deploymentName = flags.deployment ?? (env.deployment || undefined);
  const buildId = flags.buildId ?? (env.buildId || undefined);
  if (deploymentName === undefined && buildId === undefined) return (version = undefined);
  if (deploymentName === undefined || buildId === undefined)
    throw new ConfigError('environment', '--deployment and --build-id (or their variables) go together: give both');
  for (const [what, value] of [
    ['deployment', deploymentName],
    ['build id', buildId],
  ])
    if (!NAME.test(value))
      throw new ConfigError('environment', `the ${what} "${value}" must be letters, digits, ".", "_" or "-"`);
  return (version = { deploymentName, buildId });
}

/**
 * A worker's options with its deployment version applied: the version's build id replaces the bundle's
 * hash as the build id Temporal records, and workflows are pinned unless they say otherwise.
 */
export function withDeployment<T extends object>(options: T): T {
  if (!version) return options;
  const rest = { ...options } as Record<string, unknown>;
  delete rest.buildId;
  return {
    ...rest,
    workerDeploymentOptions: { version, useWorkerVersioning: true, defaultVersioningBehavior: 'PINNED' },
  } as T;
}
