// Switchyard's own answer to a server's sampling request (`sampling/createMessage`) during a tool call that
// brought no answerer of its own (the chat's, the MCP screen's, a hub client's that does not sample): the server's
// `sampling` settings say which model answers and whether the person is asked first (decision 035). The model is
// called through the gateway by whoever builds the manager (the app, see main/chat/mcp-sampling.ts), so that the
// call is routed, limited and counted in usage like any other. What a refusal looks like is sampling-errors.ts.

import type { ModelHint } from '@modelcontextprotocol/sdk/types.js';
import type { McpSamplingApproval } from '../../shared/bridge/types.js';
import { defaultSamplingApproval, type SamplingSettings } from '../../shared/mcp/sampling.js';
import { PendingPrompts } from './pending-prompts.js';
import { samplingRefused, samplingRejected } from './sampling-errors.js';
import type { SamplingHandler, SamplingRequest } from './types.js';

export type SamplingApprovalRequest = Omit<McpSamplingApproval, 'id'>;

export type SamplingApprovalAnswer = 'approve' | 'decline';

/** Sampling requests waiting for the person's approval; with no UI to ask in, they are declined at once. */
export class SamplingApprovals extends PendingPrompts<SamplingApprovalRequest, SamplingApprovalAnswer | 'unasked'> {
  constructor() {
    super({ unanswered: 'unasked', withdrawn: 'decline' });
  }
}

/** How the app reaches a model for sampling. */
export interface SamplingModels {
  /** The models of the configured providers (ids), for the server's hints to pick from. */
  available(): Promise<string[]>;
  /** Calls `model` with the request, counted in usage under the server's name. */
  complete(request: SamplingRequest, model: string, signal: AbortSignal): Promise<SamplingResult>;
}

export type SamplingResult = Awaited<ReturnType<SamplingHandler>>;

export interface SamplingAnswererOptions {
  settingsOf(server: string): SamplingSettings | undefined;
  approvals: SamplingApprovals;
  /** Unset (the CLI's short-lived managers): no model to answer with, so every request is refused. */
  models: SamplingModels | undefined;
}

const whereToChoose = 'the server\'s Sampling settings on the MCP screen, or its "sampling" in mcp_settings.json';

export function createSamplingAnswerer(options: SamplingAnswererOptions): SamplingHandler {
  return async (request, signal) => {
    const { server, params } = request;
    const settings = options.settingsOf(server);
    const approval = settings?.approval ?? defaultSamplingApproval;
    if (approval === 'never') {
      throw samplingRefused(
        `Sampling is switched off for the MCP server "${server}" (approval "never"; see ${whereToChoose}).`,
      );
    }
    if (!settings?.model) {
      throw samplingRefused(
        `No model is chosen to answer sampling requests of the MCP server "${server}": choose one in ${whereToChoose}.`,
      );
    }
    const models = options.models;
    const hints = params.modelPreferences?.hints?.filter((hint) => hint.name?.trim()) ?? [];
    // Listing models may ask every provider: only for a request that names one, and a failure leaves the choice.
    const available = models && hints.length > 0 ? await models.available().catch(() => []) : [];
    const model = chooseSamplingModel(hints, settings.model, available);
    if (approval === 'ask') {
      const answer = await options.approvals.ask(describeForApproval(request, model), signal);
      if (answer === 'unasked') {
        throw samplingRejected(
          `Declined: the sampling request of "${server}" needs the person's approval (approval "ask"), and there is ` +
            `no Switchyard window here to ask in. Set its approval to "always" in ${whereToChoose} to answer without asking.`,
        );
      }
      if (answer === 'decline') throw samplingRejected('User rejected sampling request');
    }
    if (!models) throw samplingRefused('Switchyard has no gateway in this command to answer sampling requests with.');
    return models.complete(request, model, signal);
  };
}

/**
 * The model that answers: the first hint (in the server's order of preference) that names one of the configured
 * providers' models, as a substring of its id as the specification describes; else the model the person chose.
 */
export function chooseSamplingModel(hints: ModelHint[], chosen: string, available: string[]): string {
  for (const hint of hints) {
    const name = hint.name?.trim().toLowerCase();
    if (!name) continue;
    const match = available.find((id) => id.toLowerCase().includes(name));
    if (match) return match;
  }
  return chosen;
}

function describeForApproval({ server, params }: SamplingRequest, model: string): SamplingApprovalRequest {
  return {
    server,
    model,
    ...(params.systemPrompt ? { systemPrompt: params.systemPrompt } : {}),
    messages: params.messages.map((message) => ({
      role: message.role,
      text: (Array.isArray(message.content) ? message.content : [message.content])
        .map((block) => (block.type === 'text' ? block.text : `[${block.type.replace('_', ' ')}]`))
        .join('\n'),
    })),
    maxTokens: params.maxTokens,
  };
}
