// How every chat-shaped route begins a Generation (chat completions, and the agent protocols translated to it):
// the model names made canonical (aliases), the usage row opened with the calling app, the caller's abort signal
// and key, then admission by the key's rules, credits and rate limits before any upstream call.

import type { FastifyRequest } from 'fastify';
import type { ChatRequest } from '../../../shared/api/index.js';
import { authenticatedKey, presentedSecret } from '../http/auth.js';
import type { ChatRouteContext } from '../routes/chat-completions-route.js';
import { newGenerationId, type Generation } from './generation.js';
import { failedBeforeAnswer, type Outcome } from './whole-answer.js';
import { appTitleOf, headerText, UsageRecorder } from './usage-recorder.js';

export interface StartOptions {
  /**
   * Name the app by its User-Agent when it sends no X-Title: agent CLIs (Codex, Claude Code, gemini-cli) send
   * no title, and their user agent is what tells them apart in Activity.
   */
  appFromUserAgent?: boolean;
}

/** `request` with its model names canonical: aliases replaced by the `<provider>/<model>` they stand for. */
export function withCanonicalModels(chatRequest: ChatRequest, context: ChatRouteContext): ChatRequest {
  const { providers } = context.deps;
  const model = providers.canonicalModel(chatRequest.model);
  const models = chatRequest.models?.map((name) => providers.canonicalModel(name));
  if (model === chatRequest.model && models?.every((name, index) => name === chatRequest.models![index]) !== false) {
    return chatRequest;
  }
  return models ? { ...chatRequest, model, models } : { ...chatRequest, model };
}

export function startGeneration(
  request: FastifyRequest,
  chatRequest: ChatRequest,
  context: ChatRouteContext,
  options: StartOptions = {},
): Generation {
  const key = authenticatedKey(request);
  const canonical = withCanonicalModels(chatRequest, context);
  const createdAt = Date.now();
  const id = newGenerationId();
  const appTitle = appTitleOf(request) ?? (options.appFromUserAgent ? headerText(request, 'user-agent') : null);
  const recorder = new UsageRecorder(context.deps.usage, context.deps.logger, {
    id,
    created_at: createdAt,
    key_id: key.id,
    app_title: appTitle,
    app_referer: headerText(request, 'http-referer'),
    model: canonical.model,
    streamed: canonical.stream,
  });
  return {
    id,
    created: Math.floor(createdAt / 1000),
    request: canonical,
    keyId: key.id,
    recorder,
    signal: context.inFlight.controllerOf(request).signal,
    logger: context.deps.logger,
    callerSecrets: [presentedSecret(request) ?? ''],
  };
}

/** Key rules, credits, rate limits: null when the generation may go ahead, else the outcome to answer with. */
export function admitGeneration(
  generation: Generation,
  context: ChatRouteContext,
): Outcome | null | Promise<Outcome | null> {
  const refused = (error: unknown) =>
    failedBeforeAnswer(generation, { providers: context.deps.providers, errors: context.errors }, error);
  try {
    // Decided from memory (nothing to wait for) unless a rule needs the database.
    const admitted = context.deps.accounts?.admit(generation.keyId, generation.request);
    return admitted ? admitted.then(() => null, refused) : null;
  } catch (error) {
    return refused(error);
  }
}
