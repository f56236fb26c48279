// Thinking blocks ↔ reasoning_details, for a caller speaking Anthropic Messages to a model of any kind. Anthropic's
// own thinking (text + signature) and redacted thinking travel as `anthropic-claude-v1` details, as the anthropic
// adapter reads and writes them. What other providers need back (Gemini's thought signatures, OpenRouter's
// encrypted reasoning) has no Anthropic block: it rides in a thinking block's `signature`, encoded by the same
// carrier the Responses API uses for `encrypted_content` — a client (Claude Code) sends thinking blocks back
// unchanged, so the upstream gets its signatures unchanged on the next turn.

import type { ReasoningDetail } from '../../../../shared/api/index.js';
import { anthropicReasoningFormat } from '../../../providers/index.js';
import { decodeReasoningDetails, encodeReasoningDetails } from '../responses/reasoning-carrier.js';

export interface InboundThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature?: string | null;
}

export interface InboundRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export interface OutboundThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface OutboundRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export type OutboundReasoningBlock = OutboundThinkingBlock | OutboundRedactedThinkingBlock;

/** One caller's thinking block → the reasoning details it stands for (`index` numbers the block). */
export function detailsOfThinkingBlock(
  block: InboundThinkingBlock | InboundRedactedThinkingBlock,
  index: number,
): ReasoningDetail[] {
  if (block.type === 'redacted_thinking') {
    return [{ type: 'reasoning.encrypted', data: block.data, format: anthropicReasoningFormat, index }];
  }
  const carried = block.signature ? decodeReasoningDetails(block.signature) : null;
  if (carried) return carried;
  const detail: ReasoningDetail = {
    type: 'reasoning.text',
    text: block.thinking,
    format: anthropicReasoningFormat,
    index,
  };
  if (block.signature) detail.signature = block.signature;
  return [detail];
}

export function isAnthropicDetail(detail: ReasoningDetail): boolean {
  return detail.format === anthropicReasoningFormat;
}

/** The details another provider needs back: all but plain thinking text, which the block's text already shows. */
export function carriedDetails(details: readonly ReasoningDetail[]): ReasoningDetail[] {
  return details.filter(
    (detail) => !isAnthropicDetail(detail) && !(detail.type === 'reasoning.text' && !detail.signature),
  );
}

/** A signature that carries `details` (another provider's) back to it. */
export function carrierSignature(details: readonly ReasoningDetail[]): string {
  return encodeReasoningDetails(details);
}

/**
 * The reasoning of a whole answer as blocks: Anthropic's own thinking and redacted thinking as they came; another
 * provider's reasoning as one thinking block with its text and, when it sent something to hand back, the carrier
 * as signature.
 */
export function reasoningBlocksOf(
  reasoning: string | null | undefined,
  details: readonly ReasoningDetail[] | undefined,
): OutboundReasoningBlock[] {
  const blocks: OutboundReasoningBlock[] = [];
  let current: { index: unknown; text: string; signature: string } | null = null;
  const flush = () => {
    if (current) blocks.push({ type: 'thinking', thinking: current.text, signature: current.signature });
    current = null;
  };
  for (const detail of (details ?? []).filter(isAnthropicDetail)) {
    if (detail.type === 'reasoning.text') {
      if (current === null || current.index !== detail.index || current.signature !== '') {
        flush();
        current = { index: detail.index, text: '', signature: '' };
      }
      current.text += detail.text ?? '';
      if (detail.signature) current.signature = detail.signature;
    } else if (detail.type === 'reasoning.encrypted' && detail.data) {
      flush();
      blocks.push({ type: 'redacted_thinking', data: detail.data });
    }
  }
  flush();
  const anthropicText = blocks.map((block) => (block.type === 'thinking' ? block.thinking : '')).join('');
  const otherText = anthropicText === '' ? (reasoning ?? '') : '';
  const carried = carriedDetails(details ?? []);
  if (otherText !== '' || carried.length > 0) {
    blocks.push({
      type: 'thinking',
      thinking: otherText,
      signature: carried.length > 0 ? carrierSignature(carried) : '',
    });
  }
  return blocks;
}
