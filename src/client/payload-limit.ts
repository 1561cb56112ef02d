import type { WorkflowClientInterceptor } from '@temporalio/client';

/**
 * The most this client puts in one workflow start, signal or update (JSON bytes). Temporal refuses a
 * payload over 2 MiB (`limit.blobSize.error`) and a gRPC message over 4 MB, but only after a
 * round trip and with a bare "Failed to start Workflow"; and whatever it accepts stays in the
 * workflow's history for good (invariant 4 in docs/architecture.md keeps every payload under 256 KiB). So the CLI
 * refuses larger input itself, before sending, saying what to do instead.
 */
export const MAX_MESSAGE_BYTES = 256 * 1024;

/** Input too large to send to a workflow; the CLI exits 42 with its message. */
export class PayloadTooLargeError extends Error {
  override name = 'PayloadTooLargeError';
}

export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return `${Math.ceil(bytes / 1024)} KiB`;
}

/** Throws PayloadTooLargeError when `value` is over the limit; `what` names it for the message. */
export function checkPayloadSize(what: string, value: unknown, hint = ''): void {
  const bytes = jsonBytes(value);
  if (bytes <= MAX_MESSAGE_BYTES) return;
  throw new PayloadTooLargeError(
    `${what} is ${formatBytes(bytes)}; at most ${formatBytes(MAX_MESSAGE_BYTES)} can be sent to a workflow${hint}`,
  );
}

/** Checks every start, signal and update this client sends (a backstop behind the CLI's own checks). */
export function payloadLimitInterceptor(): WorkflowClientInterceptor {
  return {
    startWithDetails(input, next) {
      checkPayloadSize(`the input of ${input.workflowType}`, input.options.args);
      return next(input);
    },
    signal(input, next) {
      checkPayloadSize(`the ${input.signalName} signal`, input.args);
      return next(input);
    },
    signalWithStart(input, next) {
      checkPayloadSize(`the ${input.signalName} signal`, input.signalArgs);
      checkPayloadSize(`the input of ${input.workflowType}`, input.options.args);
      return next(input);
    },
    startUpdate(input, next) {
      checkPayloadSize(`the ${input.updateName} update`, input.args);
      return next(input);
    },
    startUpdateWithStart(input, next) {
      checkPayloadSize(`the ${input.updateName} update`, input.updateArgs);
      checkPayloadSize(`the input of ${input.workflowType}`, input.workflowStartOptions.args);
      return next(input);
    },
  };
}
