// Thinking blocks ↔ reasoning details, without a server.

import { describe, expect, it } from 'vitest';
import { anthropicReasoningFormat } from '../../../providers/index.js';
import { carriedDetails, carrierSignature, detailsOfThinkingBlock, reasoningBlocksOf } from './thinking-blocks.js';

const format = anthropicReasoningFormat;

describe('thinking blocks', () => {
  it('round-trip Anthropic’s own thinking and another provider’s details', () => {
    const gemini = [{ type: 'reasoning.encrypted', data: 'sig', format: 'google-gemini-v1', id: 'call_1' }];
    const blocks = reasoningBlocksOf('From Gemini.', gemini);
    expect(blocks).toEqual([{ type: 'thinking', thinking: 'From Gemini.', signature: carrierSignature(gemini) }]);
    expect(detailsOfThinkingBlock(blocks[0]!, 0)).toEqual(gemini);
    expect(detailsOfThinkingBlock({ type: 'thinking', thinking: 'T', signature: 'EqQB' }, 2)).toEqual([
      { type: 'reasoning.text', text: 'T', signature: 'EqQB', format, index: 2 },
    ]);
  });

  it('join streamed pieces of one Anthropic block and leave plain reasoning unsigned', () => {
    const details = [
      { type: 'reasoning.text', text: 'A', format, index: 0 },
      { type: 'reasoning.text', text: 'B', signature: 'S', format, index: 0 },
      { type: 'reasoning.encrypted', data: 'R', format, index: 1 },
    ];
    expect(reasoningBlocksOf('AB', details)).toEqual([
      { type: 'thinking', thinking: 'AB', signature: 'S' },
      { type: 'redacted_thinking', data: 'R' },
    ]);
    expect(reasoningBlocksOf('Plain.', undefined)).toEqual([{ type: 'thinking', thinking: 'Plain.', signature: '' }]);
    expect(carriedDetails([{ type: 'reasoning.text', text: 'x', format: 'other' }])).toEqual([]);
  });
});
