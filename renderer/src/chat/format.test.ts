import { describe, expect, it } from 'vitest';
import { resourceTextPart } from '../../../shared/bridge/chat-message.js';
import { formatUsage, messageText, withText } from './format.js';
import { promptForComposer } from './mcp-pickers.js';

const usage = { prompt_tokens: 1200, completion_tokens: 30, total_tokens: 1230 };

describe('formatUsage', () => {
  it('shows what a priced reply cost, and "unpriced" for a model without a price', () => {
    expect(formatUsage(usage, 0.0123)).toBe('1,200 in · 30 out · $0.01');
    expect(formatUsage(usage, 0)).toBe('1,200 in · 30 out · $0.00');
    expect(formatUsage(usage, null)).toBe('1,200 in · 30 out · unpriced');
  });

  it('shows nothing for a reply without usage', () => {
    expect(formatUsage(null, null)).toBe('');
  });
});

describe('an attached resource in a message of the user’s', () => {
  const resource = resourceTextPart({ server: 'docs', uri: 'docs://readme' }, '# Readme');
  const content = [{ type: 'text' as const, text: 'Summarise' }, resource];

  it('is not part of the text the user edits or copies, and stays when the text is edited', () => {
    expect(messageText(content)).toBe('Summarise');
    expect(withText(content, 'Shorter')).toEqual([{ type: 'text', text: 'Shorter' }, resource]);
  });
});

describe('promptForComposer', () => {
  it('puts the user’s texts and embedded resources in the box, images as attachments, and counts the rest', () => {
    const inserted = promptForComposer(
      {
        messages: [
          { role: 'user', content: { type: 'text', text: 'Review this:' } },
          { role: 'user', content: { type: 'resource', uri: 'file:///a.ts', text: 'const a = 1;' } },
          { role: 'user', content: { type: 'image', media: { type: 'image', mimeType: 'image/png', data: 'iVBO' } } },
          { role: 'assistant', content: { type: 'text', text: 'Sure.' } },
        ],
      },
      'Code review',
    );
    expect(inserted).toEqual({
      text: 'Review this:\n\nfile:///a.ts:\n\nconst a = 1;',
      images: [{ kind: 'image', name: 'Image from Code review', size: 3, dataUrl: 'data:image/png;base64,iVBO' }],
      leftOut: 1,
    });
  });
});
