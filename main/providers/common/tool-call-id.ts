import { randomUUID } from 'node:crypto';

/** An OpenAI-style tool-call id, for upstreams that send calls without one (Ollama, older Gemini models). */
export function newToolCallId(): string {
  return `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
}
