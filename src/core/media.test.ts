import { mediaOf, mediaTypeOf, storedData, storedRefOf, travelsAlone } from './media';
import { nestsMediaInResponse } from './models';

describe('media detection', () => {
  it.each([
    ['a.png', 'image', 'image/png'],
    ['dir.v2/Photo.JPG', 'image', 'image/jpeg'],
    ['x.webp', 'image', 'image/webp'],
    ['report.pdf', 'pdf', 'application/pdf'],
    ['song.mp3', 'audio', 'audio/mpeg'],
    ['take.wav', 'audio', 'audio/wav'],
    ['take.aif', 'audio', 'audio/aiff'],
    ['clip.mp4', 'video', 'video/mp4'],
  ])('%s is %s (%s)', (file, kind, mimeType) => {
    expect(mediaTypeOf(file)).toEqual({ kind, mimeType });
  });

  it('reads everything else as text: SVG, TypeScript, no extension, a dot in a folder name', () => {
    for (const file of ['logo.svg', 'a.ts', 'Makefile', 'v1.png/README']) expect(mediaTypeOf(file)).toBe(undefined);
  });

  it('names audio formats the model cannot take', () => {
    expect(mediaTypeOf('voice.m4a')).toBe('unsupported_audio');
  });

  it('audio and video travel in a message of their own; images and PDFs with the response', () => {
    expect(travelsAlone('audio/mpeg')).toBe(true);
    expect(travelsAlone('video/mp4')).toBe(true);
    expect(travelsAlone('image/png')).toBe(false);
    expect(travelsAlone('application/pdf')).toBe(false);
  });

  it('Gemini 3 models take media inside the function response; Gemini 2.5 and Gemma beside it', () => {
    expect(nestsMediaInResponse('gemini-3.8-flash')).toBe(true);
    expect(nestsMediaInResponse('gemini-3.1-pro-preview')).toBe(true);
    expect(nestsMediaInResponse('gemini-2.5-pro')).toBe(false);
    expect(nestsMediaInResponse('gemma-4-31b-it')).toBe(false);
    expect(nestsMediaInResponse('gemini-test-model')).toBe(false);
  });

  it('a stored reference round-trips and is never taken for base64 bytes', () => {
    expect(storedRefOf(storedData('sha256:abc'))).toBe('sha256:abc');
    expect(storedRefOf('iVBORw0KGgo=')).toBe(undefined);
    expect(storedRefOf(undefined)).toBe(undefined);
  });

  it('reads the media of a response, and ignores a malformed one', () => {
    expect(mediaOf({ output: 'x', $media: { mimeType: 'image/png', ref: 'sha256:a', path: 'a.png' } })).toEqual({
      mimeType: 'image/png',
      ref: 'sha256:a',
      path: 'a.png',
    });
    expect(mediaOf({ output: 'x' })).toBe(undefined);
    expect(mediaOf({ $media: 'nope' })).toBe(undefined);
    expect(mediaOf({ $media: { mimeType: 3, ref: 'r' } })).toBe(undefined);
  });
});
