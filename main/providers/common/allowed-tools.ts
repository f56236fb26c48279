// OpenAI's `tool_choice: {type: "allowed_tools", …}` for upstreams that have no such thing: the model is offered
// only the allowed tools, and the choice becomes plain `auto` or `required`. The conversation may still name the
// other tools (earlier calls), which is why they are declared at all.

import type { ChatRequest, FunctionTool, ToolChoice } from '../../../shared/api/index.js';

export type PlainToolChoice = Exclude<ToolChoice, { type: 'allowed_tools' }>;

/** The tools the model may call: every declared one, or those an `allowed_tools` choice names. */
export function offeredTools(request: Pick<ChatRequest, 'tools' | 'tool_choice'>): FunctionTool[] {
  const tools = request.tools ?? [];
  const choice = request.tool_choice;
  if (typeof choice !== 'object' || choice.type !== 'allowed_tools') return tools;
  const allowed = new Set(choice.allowed_tools.tools.map((tool) => tool.function.name));
  return tools.filter((tool) => allowed.has(tool.function.name));
}

/** The choice with `allowed_tools` reduced to its mode (the narrowing is offeredTools'). */
export function plainToolChoice(choice: ToolChoice | undefined): PlainToolChoice | undefined {
  if (typeof choice === 'object' && choice.type === 'allowed_tools') return choice.allowed_tools.mode;
  return choice as PlainToolChoice | undefined;
}
