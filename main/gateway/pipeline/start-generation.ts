// How every generation begins, whatever the route (chat completions and the agent protocols translated to it,
// embeddings, legacy completions, the native relays): the model names made canonical (aliases), the usage row
// opened with the calling app, the caller's abort signal and key, then admission by the key's rules, credits and
// rate limits before any upstream call.

import type { ChatRequest } from '../../../shared/api/index.js';
import type { Caller, Outcome } from '../http/exchange.js';
import type { RequestContext } from './context.js';
import { newGenerationId, type Generation, type RoutedRequest } from './generation.js';
import { cacheDirectivesOf } from './cache-plan.js';
import { planTargets, withoutGroupPreferences } from './target-plan.js';
import { UsageRecorder } from './usage-recorder.js';
import { watchesOf } from './watch.js';
import { failedBeforeAnswer } from './whole-answer.js';

/** `request` with its model names canonical: aliases replaced by the `<provider>/<model>` they stand for. */
export function withCanonicalModels<Request extends RoutedRequest>(
  chatRequest: Request,
  context: RequestContext,
): Request {
  const { providers } = context.deps;
  const model = providers.canonicalModel(chatRequest.model);
  const models = chatRequest.models?.map((name) => providers.canonicalModel(name));
  if (model === chatRequest.model && models?.every((name, index) => name === chatRequest.models![index]) !== false) {
    return chatRequest;
  }
  return models ? { ...chatRequest, model, models } : { ...chatRequest, model };
}

export function startGeneration<Request extends RoutedRequest = ChatRequest>(
  caller: Caller,
  request: Request,
  context: RequestContext,
): Generation<Request> {
  const canonical = withCanonicalModels(request, context);
  const createdAt = Date.now();
  const id = newGenerationId();
  const streamed = canonical.stream ?? false;
  const watches = watchesOf(context.watchers, {
    id,
    route: caller.route,
    keyId: caller.keyId,
    model: canonical.model,
    stream: streamed,
    traceParent: caller.traceParent,
    request: canonical,
  });
  const recorder = new UsageRecorder(
    context.deps.usage,
    context.deps.logger,
    {
      id,
      created_at: createdAt,
      key_id: caller.keyId,
      app_title: caller.appTitle,
      app_referer: caller.appReferer,
      model: canonical.model,
      streamed,
    },
    watches,
  );
  return {
    id,
    created: Math.floor(createdAt / 1000),
    request: canonical,
    keyId: caller.keyId,
    recorder,
    signal: caller.signal,
    logger: context.deps.logger,
    callerSecrets: [caller.secret],
    watches,
    asSent: request,
    cacheDirectives: cacheDirectivesOf(caller.cacheControl, caller.switchyardCache),
  };
}

/** Key rules, credits, rate limits: null when the generation may go ahead, else the outcome to answer with. */
export function admitGeneration<Request extends RoutedRequest>(
  generation: Generation<Request>,
  context: RequestContext,
): Outcome<never> | null | Promise<Outcome<never> | null> {
  const refused = (error: unknown) =>
    failedBeforeAnswer(generation, { providers: context.deps.providers, errors: context.errors }, error);
  try {
    const admission = planGroups(generation, context);
    // Decided from memory (nothing to wait for) unless a rule needs the database.
    const admitted = context.deps.accounts?.admit(generation.keyId, admission);
    return admitted ? admitted.then(() => null, refused) : null;
  } catch (error) {
    return refused(error);
  }
}

/**
 * When the request names a model group (a name without "/" once aliases are canonical): its candidates planned
 * (target-plan.ts) and kept on the generation, and the request as admission judges it, the group replaced by the
 * targets the key may use. Throws ApiError(403) when a group keeps none.
 */
function planGroups<Request extends RoutedRequest>(generation: Generation<Request>, context: RequestContext): Request {
  const { request, keyId } = generation;
  if (request.model.includes('/') && (request.models?.every((name) => name.includes('/')) ?? true)) return request;
  const { providers, accounts } = context.deps;
  const groups = context.groups;
  const plan = planTargets(request, {
    groupOf: (name) => providers.aliasGroup(name),
    stats: groups?.stats,
    priceOf: accounts && ((model) => accounts.modelPrice(model)),
    allows: accounts && ((model) => accounts.allowsModel(keyId, model)),
    sticky: groups?.sticky,
  });
  generation.request = withoutGroupPreferences(request);
  const stickiness = plan.stickiness;
  generation.plan = {
    candidates: plan.candidates,
    answeredBy: (model) => {
      if (stickiness?.targets.has(model)) groups!.sticky.remember(stickiness.key, model);
    },
  };
  return { ...generation.request, model: plan.candidates[0]!, models: plan.candidates.slice(1) };
}
