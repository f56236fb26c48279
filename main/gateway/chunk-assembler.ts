// StreamParts from an adapter → the chunks our callers get (spec 2.7, 3.3). One id and `created` for the whole
// stream; `delta.role = "assistant"` on the first chunk; the chunk with finish_reason is held back until the
// upstream has ended so that it can carry the usage (upstreams send usage after the finish, in a chunk with
// `choices: []`).
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
} from '../../shared/api/index.js';
import type { StreamPart } from '../providers/adapter.js';

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
    const out = this.releaseHeld();
    if (part.delta.tool_calls?.length) this.sawToolCalls = true;
    const choice: ChunkChoice = { index: part.index, delta: this.withRole(part.delta), finish_reason: null };
    if (part.finish_reason) {
      choice.finish_reason = part.finish_reason;
      choice.native_finish_reason = part.native_finish_reason ?? null;
      this.lastFinishReason = part.finish_reason;
      this.held = this.chunk([choice]);
    } else {
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

  /** The chunks that end a failed stream: anything held, then OpenRouter's error chunk (finish_reason 'error'). */
  fail(error: ApiError): ChatCompletionChunk[] {
    const out = this.releaseHeld();
    this.lastFinishReason = 'error';
    const chunk = this.chunk([
      { index: 0, delta: { content: '' }, finish_reason: 'error', native_finish_reason: null },
    ]);
    chunk.error = { code: error.status, message: error.message, metadata: error.metadata };
    out.push(chunk);
    return out;
  }

  private releaseHeld(): ChatCompletionChunk[] {
    if (!this.held) return [];
    const held = this.held;
    this.held = null;
    return [held];
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
