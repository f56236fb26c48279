// The Gemini API's request bodies (:generateContent, :streamGenerateContent, :countTokens) as zod schemas: the one
// description of where each field is, read by the validation (errors name Gemini's fields, e.g.
// `contents[2].parts[0].inlineData.mimeType`) and by the renaming of proto field names to JSON names
// (json-field-names.ts), which accepts `inline_data` wherever `inlineData` is declared. So every field of the request
// is declared here, those the translation ignores too (with their values unchecked): a field left out would be
// accepted only under its JSON name. Objects are loose where Google's are extensible: an unknown field is kept (a
// google-kind upstream gets it) and ignored by the translation. User data is a record or an unknown value, never an
// object schema, so its keys are never renamed: a function call's `args`, a JSON Schema, a Gemini Schema's
// `properties` names.

import { z } from 'zod';

/** User data: an object whose keys are the caller's (a function's arguments, a JSON Schema, a google.protobuf.Struct). */
const objectSchema = z.record(z.string(), z.unknown());
/** A field the translation does not read: any value, declared so that both of its names are accepted. */
const passed = z.unknown().optional();

/** Fields the translation does not read, by name. */
function fields<const Names extends string>(...names: Names[]) {
  return Object.fromEntries(names.map((name) => [name, passed])) as Record<Names, typeof passed>;
}

/**
 * A message the translation does not read: declared so that both names of its fields (and of the fields of the
 * messages in `shape`) are accepted, but not checked: a value that is not such a message is kept as it came, and a
 * google-kind upstream judges it.
 */
function unread<const Names extends string, Shape extends z.ZodRawShape = Record<never, never>>(
  names: readonly Names[],
  shape?: Shape,
) {
  return z
    .looseObject({ ...fields(...names), ...(shape as Shape) })
    .catch(({ value }) => value as never)
    .optional();
}

/**
 * Gemini's Schema (OpenAPI 3.0's subset, in `parameters`, `response` and `responseSchema`): a message, so its own
 * fields have both names (`any_of`, `max_items`); the names of its `properties` are the caller's.
 */
export interface GeminiSchema {
  [field: string]: unknown;
  properties?: Record<string, GeminiSchema>;
  items?: GeminiSchema;
  anyOf?: GeminiSchema[];
}
const geminiSchema: z.ZodType<GeminiSchema> = z.looseObject({
  ...fields(
    'type',
    'format',
    'title',
    'description',
    'nullable',
    'enum',
    'maxItems',
    'minItems',
    'required',
    'minProperties',
    'maxProperties',
    'minLength',
    'maxLength',
    'pattern',
    'example',
    'propertyOrdering',
    'default',
    'minimum',
    'maximum',
  ),
  get properties() {
    return z.record(z.string(), geminiSchema).optional();
  },
  get items() {
    return geminiSchema.optional();
  },
  get anyOf() {
    return z.array(geminiSchema).optional();
  },
  get additionalProperties() {
    return z.union([z.boolean(), geminiSchema]).optional();
  },
});

const blobFields = ['mimeType', 'data', 'displayName'] as const;
const fileDataFields = ['mimeType', 'fileUri', 'displayName'] as const;

const partSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  inlineData: z.looseObject({ ...fields(...blobFields), mimeType: z.string().min(1), data: z.string() }).optional(),
  fileData: z
    .looseObject({ ...fields(...fileDataFields), mimeType: z.string().optional(), fileUri: z.string().min(1) })
    .optional(),
  functionCall: z
    .looseObject({
      ...fields('partialArgs', 'willContinue'),
      name: z.string().min(1),
      args: objectSchema.optional(),
      id: z.string().optional(),
    })
    .optional(),
  functionResponse: z
    .looseObject({
      ...fields('willContinue', 'scheduling'),
      name: z.string().min(1),
      response: objectSchema.optional(),
      id: z.string().optional(),
      parts: z.array(unread([], { inlineData: unread(blobFields), fileData: unread(fileDataFields) })).optional(),
    })
    .optional(),
  executableCode: unread(['language', 'code', 'id']),
  codeExecutionResult: unread(['outcome', 'output', 'id']),
  videoMetadata: unread(['startOffset', 'endOffset', 'fps']),
  mediaResolution: unread(['level', 'numTokens']),
  partMetadata: objectSchema.optional(),
  toolCall: unread(['id', 'toolType'], { args: objectSchema.optional() }),
  toolResponse: unread(['id', 'toolType'], { response: objectSchema.optional() }),
  audioTranscription: unread(['text', 'finished', 'languageCode', 'speakerLabel'], {
    words: z.array(unread(['word', 'startOffset', 'endOffset'])).optional(),
  }),
  speechMetadata: unread(['speaker', 'style']),
  mediaProcessing: passed,
});
export type GeminiInboundPart = z.output<typeof partSchema>;

const contentSchema = z.looseObject({
  // `function` is the role older clients gave function responses.
  role: z.enum(['user', 'model', 'function']).optional(),
  parts: z.array(partSchema),
});
export type GeminiInboundContent = z.output<typeof contentSchema>;

const functionDeclarationSchema = z.looseObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, { error: 'must be 1 to 64 letters, digits, "_" or "-"' }),
  description: z.string().optional(),
  behavior: passed,
  parameters: geminiSchema.optional(),
  parametersJsonSchema: objectSchema.optional(),
  response: geminiSchema.optional(),
  responseJsonSchema: objectSchema.optional(),
});

/** Everything but functionDeclarations is a tool only Gemini runs. */
const toolSchema = z.looseObject({
  functionDeclarations: z.array(functionDeclarationSchema).optional(),
  codeExecution: unread([]),
  urlContext: unread([]),
  googleSearch: unread(['excludeDomains', 'blockingConfidence'], {
    timeRangeFilter: unread(['startTime', 'endTime']),
    searchTypes: unread(['webSearch', 'imageSearch']),
  }),
  googleSearchRetrieval: unread([], { dynamicRetrievalConfig: unread(['mode', 'dynamicThreshold']) }),
  computerUse: unread(['environment', 'excludedPredefinedFunctions']),
  fileSearch: unread(['fileSearchStoreNames', 'topK', 'metadataFilter']),
  googleMaps: unread(['enableWidget', 'authConfig']),
  mcpServers: z
    .array(
      unread(['name'], {
        // Its `headers` are the caller's header names.
        streamableHttpTransport: unread(['url', 'timeout', 'sseReadTimeout', 'terminateOnClose'], {
          headers: objectSchema.optional(),
        }),
      }),
    )
    .optional(),
});

const toolConfigSchema = z.looseObject({
  functionCallingConfig: z
    .looseObject({
      ...fields('streamFunctionCallArguments'),
      mode: z.enum(['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED']).optional(),
      allowedFunctionNames: z.array(z.string()).optional(),
    })
    .optional(),
  retrievalConfig: unread(['languageCode'], { latLng: unread(['latitude', 'longitude']) }),
  includeServerSideToolInvocations: passed,
});

const thinkingLevels = ['minimal', 'low', 'medium', 'high'] as const;

const voiceConfig = unread([], { prebuiltVoiceConfig: unread(['voiceName']) });

const generationConfigSchema = z.looseObject({
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().min(0).max(1).optional(),
  topK: z.number().int().min(0).optional(),
  candidateCount: z.number().int().min(1).max(8).optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  stopSequences: z.array(z.string()).max(4).optional(),
  seed: z.number().int().optional(),
  presencePenalty: z.number().min(-2).max(2).optional(),
  frequencyPenalty: z.number().min(-2).max(2).optional(),
  responseMimeType: z.string().optional(),
  responseSchema: geminiSchema.optional(),
  responseJsonSchema: objectSchema.optional(),
  responseModalities: passed,
  responseLogprobs: passed,
  logprobs: passed,
  enableEnhancedCivicAnswers: passed,
  mediaResolution: passed,
  speechConfig: unread(['languageCode'], {
    voiceConfig: voiceConfig,
    multiSpeakerVoiceConfig: unread([], {
      speakerVoiceConfigs: z.array(unread(['speaker'], { voiceConfig })).optional(),
    }),
  }),
  imageConfig: unread(['aspectRatio', 'imageSize']),
  thinkingConfig: z
    .looseObject({
      includeThoughts: z.boolean().optional(),
      thinkingBudget: z.number().int().min(-1).optional(),
      thinkingLevel: z
        .string()
        .transform((level) => level.toLowerCase())
        .pipe(z.enum([...thinkingLevels, 'thinking_level_unspecified']))
        .optional(),
    })
    .optional(),
});

export const generateContentRequestSchema = z.looseObject({
  model: passed,
  contents: z.array(contentSchema).min(1),
  systemInstruction: z.union([contentSchema, z.string()]).optional(),
  tools: z.array(toolSchema).optional(),
  toolConfig: toolConfigSchema.optional(),
  safetySettings: z.array(unread(['category', 'threshold', 'method'])).optional(),
  generationConfig: generationConfigSchema.optional(),
  cachedContent: passed,
  serviceTier: passed,
  store: passed,
});
export type GenerateContentRequest = z.output<typeof generateContentRequestSchema>;

/** :countTokens takes the contents alone, or a whole GenerateContentRequest (with its model). */
export const countTokensRequestSchema = z.looseObject({
  contents: z.array(contentSchema).optional(),
  generateContentRequest: generateContentRequestSchema.optional(),
});
