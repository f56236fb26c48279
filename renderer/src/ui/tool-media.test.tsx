import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolMediaList } from './tool-media.js';

afterEach(cleanup);

describe('ToolMediaList', () => {
  it('shows an image as an <img> and audio as an <audio controls>, each from a data URL', () => {
    render(
      <ToolMediaList
        source="everything / get-tiny-image"
        media={[
          { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
          { type: 'audio', mimeType: 'audio/wav', data: 'UklGRiQAAABXQVZF' },
        ]}
      />,
    );
    const image = screen.getByRole('img', { name: 'Image 1 from everything / get-tiny-image' });
    expect(image.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    const audio = screen.getByLabelText('Audio from everything / get-tiny-image');
    expect(audio.tagName).toBe('AUDIO');
    expect(audio.hasAttribute('controls')).toBe(true);
    expect(audio.getAttribute('src')).toBe('data:audio/wav;base64,UklGRiQAAABXQVZF');
  });

  it('shows nothing of a type it does not play as media', () => {
    const { container } = render(
      <ToolMediaList source="x" media={[{ type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' }]} />,
    );
    expect(container.innerHTML).toBe('');
  });
});
