// The tools of a Responses request as the chat request offers them: function tools stay functions, a custom
// (freeform) tool is offered as a function with one string argument `input`, a namespace's functions as
// `<namespace>__<name>`; the ToolNaming remembers which is which, to name the calls in the answer as the caller
// declared them. Hosted tools (OpenAI runs them on its servers) are never refused: hosted-tools.ts says what becomes
// of them. docs/decisions/013-responses-api.md has the table.

import { z } from 'zod';
import { ApiError, type FunctionTool, type ToolChoice } from '../../../../shared/api/index.js';

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const toolName = z.string().regex(toolNamePattern, { error: 'must be 1 to 64 letters, digits, "_" or "-"' });

/** The tool types the caller's own code runs; any other is a hosted tool. */
const callerToolTypes = ['function', 'custom', 'namespace'];
const isHostedType = (type: string) => !callerToolTypes.includes(type) && type !== 'allowed_tools';

const functionToolSchema = z.looseObject({
  type: z.literal('function'),
  name: toolName,
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});
const customToolSchema = z.looseObject({
  type: z.literal('custom'),
  name: toolName,
  description: z.string().nullish(),
  format: z
    .looseObject({ type: z.string(), syntax: z.string().optional(), definition: z.string().optional() })
    .nullish(),
});
const namespaceToolSchema = z.looseObject({
  type: z.literal('namespace'),
  name: toolName,
  description: z.string().nullish(),
  tools: z.array(z.discriminatedUnion('type', [functionToolSchema, customToolSchema])),
});
/** A tool OpenAI runs on its servers (web_search, file_search, code_interpreter, image_generation, mcp…). */
const hostedToolSchema = z.looseObject({ type: z.string().refine(isHostedType) });
export const toolSchema = z.union([functionToolSchema, customToolSchema, namespaceToolSchema, hostedToolSchema]);

const namedToolSchema = z.looseObject({ type: z.enum(['function', 'custom']), name: z.string().min(1) });
/** A hosted tool named in tool_choice (`{"type": "web_search_preview"}`): it is never forced (hosted-tools.ts). */
const hostedChoiceSchema = z.looseObject({ type: z.string().refine(isHostedType) });
export const toolChoiceSchema = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    namedToolSchema,
    z.looseObject({
      type: z.literal('allowed_tools'),
      mode: z.enum(['auto', 'required']),
      tools: z.array(z.union([namedToolSchema, hostedChoiceSchema])).min(1),
    }),
    hostedChoiceSchema,
  ],
  {
    error:
      'must be "none", "auto", "required", {"type": "function", "name": "<tool>"}, {"type": "custom", "name": "<tool>"} or {"type": "allowed_tools", …}',
  },
);

type FunctionToolDeclaration = z.output<typeof functionToolSchema>;
type CustomToolDeclaration = z.output<typeof customToolSchema>;
type NamespaceDeclaration = z.output<typeof namespaceToolSchema>;
/** A declared tool, told apart by type. */
export type ToolDeclaration = FunctionToolDeclaration | CustomToolDeclaration | NamespaceDeclaration | { type: string };
type ResponsesToolChoice = z.output<typeof toolChoiceSchema>;

/** How the caller named its tools, to name the model's calls back as it declared them. */
export interface ToolNaming {
  /** Chat names of custom (freeform) tools, whose calls carry `input` rather than JSON arguments. */
  custom: ReadonlySet<string>;
  /** Chat name → the namespace and name the caller declared. */
  namespaced: ReadonlyMap<string, { namespace: string; name: string }>;
}

/** The name a namespaced function is offered under. */
export function namespacedToolName(namespace: string, name: string): string {
  return `${namespace}__${name}`;
}

/** Whether a declared tool is one OpenAI runs on its servers. */
export function isHostedTool(tool: { type: string }): boolean {
  return isHostedType(tool.type);
}

/** The caller's own tools as chat functions (hosted ones are hosted-tools.ts's), and how to name their calls. */
export function chatToolsOf(declared: readonly ToolDeclaration[]): { tools: FunctionTool[]; naming: ToolNaming } {
  const tools: FunctionTool[] = [];
  const custom = new Set<string>();
  const namespaced = new Map<string, { namespace: string; name: string }>();
  const add = (tool: ToolDeclaration, name: string) => {
    if (tool.type === 'function') {
      const { description, parameters, strict } = tool as FunctionToolDeclaration;
      const fn: FunctionTool['function'] = { name, parameters: parameters ?? { type: 'object', properties: {} } };
      if (description) fn.description = description;
      if (typeof strict === 'boolean') fn.strict = strict;
      tools.push({ type: 'function', function: fn });
    } else if (tool.type === 'custom') {
      custom.add(name);
      tools.push({ type: 'function', function: freeformFunction(tool as CustomToolDeclaration, name) });
    }
  };
  for (const tool of declared) {
    if (tool.type === 'namespace') {
      const namespace = tool as NamespaceDeclaration;
      for (const inner of namespace.tools) {
        const name = namespacedToolName(namespace.name, inner.name);
        namespaced.set(name, { namespace: namespace.name, name: inner.name });
        add(inner, name);
      }
    } else if (tool.type === 'function' || tool.type === 'custom') {
      add(tool, (tool as FunctionToolDeclaration).name);
    }
  }
  return { tools, naming: { custom, namespaced } };
}

/** A freeform tool as a function of one string, its grammar told in the description. */
function freeformFunction(tool: CustomToolDeclaration, name: string): FunctionTool['function'] {
  const format = tool.format;
  const grammar =
    format?.type === 'grammar' && format.definition
      ? `\n\nThe input must follow this ${format.syntax ?? ''} grammar:\n${format.definition}`
      : '';
  return {
    name,
    description: `${tool.description ?? ''}${grammar}`.trim() || `The ${name} tool.`,
    parameters: {
      type: 'object',
      properties: { input: { type: 'string', description: `The raw input of ${name}, not JSON.` } },
      required: ['input'],
      additionalProperties: false,
    },
  };
}

/**
 * The chat tool_choice, or undefined for none: upstreams refuse a tool_choice without tools, and a hosted tool is
 * never forced (the model may still use it: `auto`). Naming a tool that was not declared is a 400.
 */
export function chatToolChoiceOf(
  choice: ResponsesToolChoice | undefined,
  tools: FunctionTool[],
): ToolChoice | undefined {
  if (choice === undefined) return undefined;
  const declared = new Set(tools.map((tool) => tool.function.name));
  const named = (name: string, path: string): { type: 'function'; function: { name: string } } => {
    if (!declared.has(name)) {
      throw new ApiError(400, `Invalid request: ${path} "${name}" is not one of the declared tools.`);
    }
    return { type: 'function', function: { name } };
  };
  if (typeof choice === 'object' && (choice.type === 'function' || choice.type === 'custom')) {
    return named((choice as { name: string }).name, 'tool_choice.name');
  }
  if (typeof choice === 'object' && choice.type === 'allowed_tools') {
    const { mode, tools: allowed } = choice as Extract<ResponsesToolChoice, { type: 'allowed_tools' }>;
    const functions = allowed.flatMap((tool, index) =>
      tool.type === 'function' || tool.type === 'custom'
        ? [named((tool as { name: string }).name, `tool_choice.tools[${index}].name`)]
        : [],
    );
    if (functions.length === 0) return tools.length > 0 ? 'auto' : undefined;
    // A hosted tool allowed beside them may be what the model uses: a call of the functions is no longer required.
    const allowedMode = functions.length < allowed.length ? 'auto' : mode;
    return { type: 'allowed_tools', allowed_tools: { mode: allowedMode, tools: functions } };
  }
  if (tools.length === 0) return undefined;
  return typeof choice === 'string' ? choice : 'auto';
}
