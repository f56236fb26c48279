import { describe, expect, it } from 'vitest';
import { maxToolMediaBytes, mediaDataUrl, mediaOfPart, showableMedia, toMediaPart } from './tool-media.js';

const png = { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' };
const wav = { type: 'audio', mimeType: 'audio/wav', data: 'UklGRiQAAABXQVZF' };

describe('tool media', () => {
  it('takes images and audio of types a browser plays as media', () => {
    expect(showableMedia(png)).toEqual(png);
    expect(showableMedia({ ...wav, mimeType: 'AUDIO/MPEG' })).toEqual({ ...wav, mimeType: 'audio/mpeg' });
    expect(mediaDataUrl(showableMedia(png)!)).toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('refuses SVG, HTML, data that is not base64, and more than the size limit', () => {
    expect(showableMedia({ ...png, mimeType: 'image/svg+xml' })).toBeNull();
    expect(showableMedia({ ...png, mimeType: 'text/html' })).toBeNull();
    expect(showableMedia({ ...wav, mimeType: 'image/png' })).toBeNull();
    expect(showableMedia({ ...png, data: '<script>alert(1)</script>' })).toBeNull();
    expect(showableMedia({ ...png, data: 'A'.repeat(Math.ceil((maxToolMediaBytes * 4) / 3) + 8) })).toBeNull();
    expect(showableMedia({ type: 'text', mimeType: 'image/png', data: 'AAAA' })).toBeNull();
  });

  it('keeps media in a stored message as content parts and reads them back checked', () => {
    const image = toMediaPart(showableMedia(png)!);
    const audio = toMediaPart(showableMedia(wav)!);
    expect(image).toEqual({ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } });
    expect(audio).toEqual({ type: 'input_audio', input_audio: { data: wav.data, format: 'wav' } });
    expect(mediaOfPart(image)).toEqual(png);
    expect(mediaOfPart(audio)).toEqual(wav);
    expect(mediaOfPart({ type: 'text', text: 'hi' })).toBeNull();
    expect(mediaOfPart({ type: 'image_url', image_url: { url: 'data:image/svg+xml;base64,PHN2Zz4=' } })).toBeNull();
    expect(mediaOfPart({ type: 'image_url', image_url: { url: 'https://example.com/a.png' } })).toBeNull();
  });
});
