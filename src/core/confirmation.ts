import { z } from 'zod';
import { APPROVAL_MODES } from './types';

/** The `toolConfirmation` payload, exactly what a person types with `temporal workflow signal`. */
export const toolConfirmationSchema = z.object({
  callId: z.string().min(1, 'callId is required'),
  outcome: z.enum([
    'proceed_once',
    'proceed_always',
    'proceed_always_tool',
    'proceed_always_server',
    'modify',
    'cancel',
  ]),
  args: z.record(z.string(), z.unknown()).optional(),
  reason: z.string().optional(),
  /** For `exit_plan_mode`: the approval mode to continue in (default: `default`). */
  mode: z.enum(APPROVAL_MODES as [string, ...string[]]).optional(),
});

export const approvalModeSchema = z.union([
  z.enum(APPROVAL_MODES as [string, ...string[]]),
  z.object({ mode: z.enum(APPROVAL_MODES as [string, ...string[]]) }),
]);

/** One line saying what is wrong with a payload, for events and update rejections. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'payload'}: ${i.message}`).join('; ');
}
