// The model catalogue in OpenRouter's shapes (model-entry.ts), only the models the calling key may use:
//   GET {base}/models                  `{data, links, total_count}`; ?supported_parameters=, ?output_modalities=,
//                                      ?offset= and ?limit= as OpenRouter's list takes them; with an
//                                      `anthropic-version` header, Anthropic's list (protocols/anthropic/model-list.ts)
//   GET {base}/models/user             the same list (it is the key's own already)
//   GET {base}/models/count            `{data: {count}}`
//   GET {base}/models/{id}             one entry; ids contain `/` (`openrouter/anthropic/claude-sonnet-4`). On /v1
//                                      OpenAI's Model object (the entry itself: `id`, `object`, `created`,
//                                      `owned_by` with OpenRouter's fields beside them), which the openai SDKs'
//                                      models.retrieve() reads, and OpenAI's error shape; on /api/v1 `{data: entry}`
//                                      as OpenRouter's other single-object answers
//   GET {base}/model/{author}/{slug}   `{data: entry}` on both, at the path @openrouter/sdk's models.get() calls
//   GET {base}/models/{id}/endpoints   the model with its endpoint (the provider in its id)
// The user's model aliases come first, each as an entry of its own (id = the alias, `alias_for` = its target, the
// rest the target's), since tools such as Claude Code and Codex look models up by the name they send. An alias is
// listed only when its target is: listed by its provider and one the key may use.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, type ModelAliasInfo } from '../../../shared/api/index.js';
import type { ProviderRegistry } from '../../providers/index.js';
import type { ApiBase } from '../http/api-bases.js';
import { authenticatedKey } from '../http/auth.js';
import type { GatewayAccounts } from '../deps.js';
import { anthropicModelList, wantsAnthropicModelList } from '../protocols/anthropic/model-list.js';
import {
  producesAny,
  supportsAll,
  toOpenRouterEndpoints,
  toOpenRouterModel,
  type OpenRouterModel,
} from './openrouter/model-entry.js';

type ModelsQuery = Record<string, string | string[] | undefined>;

/** An alias in the catalogue: the target's entry under the alias's name. */
interface AliasModel extends OpenRouterModel {
  /** The `<provider>/<model>` requests for this id go to. */
  alias_for: string;
}

function toAliasModel(alias: ModelAliasInfo, target: OpenRouterModel, basePrefix: string): AliasModel {
  return {
    ...target,
    id: alias.name,
    // As OpenRouter's `openai/gpt-4o` has the canonical slug of the dated model it stands for.
    canonical_slug: target.id,
    name: alias.name,
    description: `An alias of ${target.id}: ${target.description}`,
    links: { details: `${basePrefix}/models/${alias.name}/endpoints` },
    alias_for: target.id,
  };
}

function isAlias(model: OpenRouterModel): model is AliasModel {
  return 'alias_for' in model;
}

/** A comma-separated query parameter as a list; empty when absent. */
function listParameter(query: ModelsQuery, name: string): string[] {
  const value = query[name];
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function countParameter(query: ModelsQuery, name: string): number | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  const number = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isNaN(number)) throw new ApiError(400, `The query parameter "${name}" must be a whole number from 0.`);
  return number;
}

/** The URL of the next page: this request's, with `offset` moved on. */
function nextPage(request: FastifyRequest, offset: number): string {
  const url = new URL(request.url, 'http://gateway');
  url.searchParams.set('offset', String(offset));
  return `${url.pathname}${url.search}`;
}

export function registerModelsRoute(
  server: FastifyInstance,
  base: ApiBase,
  providers: ProviderRegistry,
  accounts?: Pick<GatewayAccounts, 'allowsModel' | 'modelPrice'>,
): void {
  /** Every model the calling key may use, in OpenRouter's shape. */
  async function catalogue(request: FastifyRequest): Promise<OpenRouterModel[]> {
    const [models, providerList] = await Promise.all([providers.listModels(), providers.listProviders()]);
    const kinds = new Map(providerList.map((provider) => [provider.id, provider.kind]));
    const keyId = authenticatedKey(request).id;
    const entries = models
      .filter((model) => !accounts || accounts.allowsModel(keyId, model.id))
      .map((model) =>
        toOpenRouterModel(model, {
          kind: kinds.get(model.id.slice(0, model.id.indexOf('/'))),
          prices: accounts?.modelPrice(model.id) ?? null,
          basePrefix: base.prefix,
        }),
      );
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    const aliases = providers.listAliases().flatMap((alias) => {
      const target = byId.get(alias.target);
      return target ? [toAliasModel(alias, target, base.prefix)] : [];
    });
    return [...aliases, ...entries];
  }

  async function filtered(request: FastifyRequest<{ Querystring: ModelsQuery }>): Promise<OpenRouterModel[]> {
    const wantedParameters = listParameter(request.query, 'supported_parameters');
    const wantedOutputs = listParameter(request.query, 'output_modalities');
    return (await catalogue(request)).filter(
      (model) =>
        supportsAll(model, wantedParameters) && (wantedOutputs.length === 0 || producesAny(model, wantedOutputs)),
    );
  }

  async function list(request: FastifyRequest<{ Querystring: ModelsQuery }>) {
    // Anthropic's clients (Claude Code's model discovery) read the list in Anthropic's shape.
    if (wantsAnthropicModelList(request.headers)) return anthropicModelList(await filtered(request), request.query);
    const offset = countParameter(request.query, 'offset') ?? 0;
    const limit = countParameter(request.query, 'limit');
    const models = await filtered(request);
    const end = limit === undefined ? models.length : Math.min(models.length, offset + limit);
    return {
      object: 'list',
      data: models.slice(offset, end),
      links: { next: end < models.length ? nextPage(request, end) : null },
      total_count: models.length,
    };
  }

  async function find(request: FastifyRequest, id: string): Promise<OpenRouterModel | undefined> {
    return (await catalogue(request)).find((model) => model.id === id);
  }

  function notFound(id: string): ApiError {
    return new ApiError(404, `No model has the id "${id}" (or this API key may not use it). GET /models lists them.`, {
      code: 'model_not_found',
      param: 'model',
    });
  }

  server.get<{ Querystring: ModelsQuery }>(`${base.prefix}/models`, list);
  server.get<{ Querystring: ModelsQuery }>(`${base.prefix}/models/user`, list);
  server.get<{ Querystring: ModelsQuery }>(`${base.prefix}/models/count`, async (request) => ({
    data: { count: (await filtered(request)).length },
  }));

  // On /v1 the model is OpenAI's Model object, and its errors OpenAI's, as the openai SDKs expect of models.retrieve().
  const oneModelConfig = base.shapes === 'openai' ? { errorShape: 'openai' as const } : {};
  server.get<{ Params: { '*': string } }>(`${base.prefix}/models/*`, { config: oneModelConfig }, async (request) => {
    const path = request.params['*'];
    const model = await find(request, path);
    if (model) return base.shapes === 'openai' ? model : { data: model };
    const suffix = '/endpoints';
    if (path.endsWith(suffix)) {
      const id = path.slice(0, -suffix.length);
      const endpointsOf = await find(request, id);
      if (endpointsOf && isAlias(endpointsOf)) {
        // The endpoint is the target's provider; the list is the alias's.
        return { data: { ...toOpenRouterEndpoints({ ...endpointsOf, id: endpointsOf.alias_for }), id } };
      }
      if (endpointsOf) return { data: toOpenRouterEndpoints(endpointsOf) };
      throw notFound(id);
    }
    throw notFound(path);
  });

  server.get<{ Params: { '*': string } }>(`${base.prefix}/model/*`, async (request) => {
    const id = request.params['*'];
    const model = await find(request, id);
    if (!model) throw notFound(id);
    return { data: model };
  });
}
