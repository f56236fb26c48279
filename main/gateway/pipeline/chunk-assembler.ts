// StreamParts from an adapter → the chunks our callers get (spec 2.7, 3.3). One id and `created` for the whole
// stream; `delta.role = "assistant"` on the first chunk; the chunk with finish_reason is held back until the
// upstream has ended so that it can carry the usage (upstreams send usage after the finish, in a chunk with
// `choices: []`). Each choice gets one terminal chunk: upstreams that repeat the finish (OpenRouter sends
// `finish_reason: "length"` twice) or send more after it have the held chunk go out without its finish, which the
// choice's next chunk takes over; a failure's error chunk is the terminal chunk of a choice whose finish was held.
//
// Decision: usage always rides in that final chunk, also when the caller asked for
// `stream_options.include_usage`. Clients read `usage` from whichever chunk has it, and a separate chunk with
// `choices: []` crashes naive clients (notes section 1), so we never send one.

import type {
  ApiError,
  ChatCompletionChunk,
  ChunkChoice,
  ChunkDelta,
  FinishReason,
  Usage,
} from '../../../shared/api/index.js';
import type { StreamPart } from '../../providers/index.js';

export interface StreamIdentity {
  id: string;
  created: number;
  /** The model as requested, `<provider>/<model>`. */
  model: string;
  provider: string;
}

export class ChunkAssembler {
  private roleSent = false;
  private held: ChatCompletionChunk | null = null;
  private sawToolCalls = false;
  private lastUsage: Usage | null = null;
  private lastFinishReason: FinishReason | null = null;
  /** Choices whose terminal chunk went out: anything later for them is content only. */
  private readonly finishedChoices = new Set<number>();

  constructor(private readonly identity: StreamIdentity) {}

  get usage(): Usage | null {
    return this.lastUsage;
  }

  get finishReason(): FinishReason | null {
    return this.lastFinishReason;
  }

  /** The chunks to write now for one part (none for usage; none while a finish chunk is held). */
  accept(part: StreamPart): ChatCompletionChunk[] {
    if (part.type === 'usage') {
      this.lastUsage = part.usage;
      return [];
    }
    if (part.delta.tool_calls?.length) this.sawToolCalls = true;
    const held = this.held?.choices[0];
    const sameChoice = held?.index === part.index;
    // More for a choice that had finished: the held chunk goes out as content, its finish moves to this part.
    const out = sameChoice ? this.demoteHeld() : this.releaseHeld();
    const finish = part.finish_reason ? part : sameChoice ? held : undefined;
    const finishReason = this.finishedChoices.has(part.index) ? null : (finish?.finish_reason ?? null);
    const choice: ChunkChoice = { index: part.index, delta: this.withRole(part.delta), finish_reason: null };
    if (part.logprobs) choice.logprobs = part.logprobs;
    if (finishReason) {
      choice.finish_reason = finishReason;
      choice.native_finish_reason = finish?.native_finish_reason ?? null;
      this.lastFinishReason = finishReason;
      this.held = this.chunk([choice]);
    } else if (Object.keys(choice.delta).length > 0 || choice.logprobs) {
      out.push(this.chunk([choice]));
    }
    return out;
  }

  /** The last chunk(s) after the upstream ended normally: the held finish chunk (or a made-up one) + usage. */
  finish(): ChatCompletionChunk[] {
    let last = this.held;
    this.held = null;
    if (!last) {
      // The upstream ended with [DONE] but never said why: it finished normally.
      this.lastFinishReason = this.sawToolCalls ? 'tool_calls' : 'stop';
      last = this.chunk([
        { index: 0, delta: this.withRole({}), finish_reason: this.lastFinishReason, native_finish_reason: null },
      ]);
    }
    if (this.lastUsage) last.usage = this.lastUsage;
    return [last];
  }

  /**
   * The chunks that end a failed stream: a held finish chunk as content only, then OpenRouter's error chunk
   * (finish_reason 'error') with the usage the upstream reported.
   */
  fail(error: ApiError): ChatCompletionChunk[] {
    const out = this.demoteHeld();
    this.lastFinishReason = 'error';
    const chunk = this.chunk([
      { index: 0, delta: { content: '' }, finish_reason: 'error', native_finish_reason: null },
    ]);
    chunk.error = { code: error.status, message: error.message, metadata: error.metadata };
    if (this.lastUsage) chunk.usage = this.lastUsage;
    out.push(chunk);
    return out;
  }

  /** The held finish chunk, sent as the choice's terminal chunk. */
  private releaseHeld(): ChatCompletionChunk[] {
    if (!this.held) return [];
    const held = this.held;
    this.held = null;
    for (const choice of held.choices) this.finishedChoices.add(choice.index);
    return [held];
  }

  /** The held finish chunk without its finish (nothing when it carried nothing else). */
  private demoteHeld(): ChatCompletionChunk[] {
    if (!this.held) return [];
    const held = this.held;
    this.held = null;
    const out: ChatCompletionChunk[] = [];
    for (const choice of held.choices) {
      if (Object.keys(choice.delta).length === 0) continue;
      out.push(this.chunk([{ index: choice.index, delta: choice.delta, finish_reason: null }]));
    }
    return out;
  }

  private withRole(delta: ChunkDelta): ChunkDelta {
    if (this.roleSent) return delta;
    this.roleSent = true;
    return { role: 'assistant', ...delta };
  }

  private chunk(choices: ChunkChoice[]): ChatCompletionChunk {
    const { id, created, model, provider } = this.identity;
    return { id, object: 'chat.completion.chunk', created, model, provider, choices };
  }
}
