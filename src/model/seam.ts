import type { GoogleGenAI } from '@google/genai';

/**
 * The model as the rest of the code sees it: the two SDK methods the activities call.
 * The real `createGenAI(...).models` fits it, and so does the scripted fake in test/fakes. Type-only,
 * so that nothing but src/model/client.ts loads the SDK to build one.
 */
export type ModelSeam = Pick<GoogleGenAI['models'], 'generateContentStream' | 'generateContent'>;

/** The non-streaming half: JSON utility calls (routing, loop checks, next speaker) and compression. */
export type JsonModelSeam = Pick<ModelSeam, 'generateContent'>;

/** The streaming half: one streamed main-loop request (`streamValidTurn`). */
export type StreamSeam = Pick<ModelSeam, 'generateContentStream'>;
