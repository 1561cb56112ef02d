import { z } from 'zod';
import { describeIssues } from './confirmation';
import { payloadProblem } from './message-input';

/**
 * The payload of a session's `rewindConversation` update. `to`: the conversation's next prompt starts from the
 * first `length` messages of transcript `id` (absent: the conversation stays, only the files were rewound).
 * `checkpoint`: the workspace checkpoint taken just before the rewind, kept for `--undo`. `undo: true` instead puts
 * back the conversation the last rewind replaced (the files are the client's to restore, from the same record).
 * `restore` (either form): the session itself puts the files back, on its workspace's host, for a client on another
 * machine: a checkpoint of the workspace as it is first (kept for undo; `exclude` is the restored checkpoint's own),
 * then checkpoint `checkpoint` written over the workspace. Payloads without it are those of older clients.
 */
const restoreSchema = z
  .object({ checkpoint: z.string().min(1), exclude: z.array(z.string()).optional() })
  .strict()
  .optional();

export const rewindConversationSchema = z.union([
  z
    .object({
      to: z
        .object({ id: z.string().min(1), length: z.number().int().nonnegative() })
        .strict()
        .optional(),
      checkpoint: z.string().min(1).optional(),
      turn: z.number().int().positive().optional(),
      restore: restoreSchema,
    })
    .strict(),
  z.object({ undo: z.literal(true), checkpoint: z.string().min(1).optional(), restore: restoreSchema }).strict(),
]);

export type RewindConversation = z.infer<typeof rewindConversationSchema>;

/** What the session restores on its workspace's host (`restore` of the payload). */
export type HostRestore = NonNullable<z.infer<typeof restoreSchema>>;

/** Where a conversation stands: the first `length` messages of a transcript. */
export interface TranscriptRef {
  id: string;
  length: number;
}

/** What a session remembers of its last rewind, so that `--undo` can put it back (undoing an undo redoes it). */
export interface RewindRecord {
  /** The conversation before the rewind. */
  transcript: TranscriptRef;
  /** The workspace checkpoint taken before the rewind. */
  checkpoint?: string;
  /** The turn rewound to (absent for an undo). */
  turn?: number;
}

/** The payload, checked; a clear reason when it is not one. */
export function parseRewind(payload: unknown): RewindConversation {
  const problem = payloadProblem(payload);
  if (problem) throw new Error(`rewindConversation: ${problem}`);
  const parsed = rewindConversationSchema.safeParse(payload);
  if (!parsed.success) throw new Error(`rewindConversation: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
