// The `{model}:{method}` of a Gemini API path, after `/v1beta/models/`. The model may hold `/`
// (`google/gemini-2.5-pro`, which @google/genai puts in the path as it is) and `:` (`ollama/llama3:8b`): the method
// is what follows the last `:`. A `models/` prefix (a client that names models as Google's list does) and
// percent-encoded slashes are accepted.

export interface ModelCall {
  model: string;
  /** `generateContent`, `streamGenerateContent`, `countTokens`…; null for the model itself (GET). */
  method: string | null;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The model named by a path's rest: its `models/` prefix removed, percent-encoding decoded. */
export function modelOfPath(rest: string): string {
  const name = decoded(rest);
  return name.startsWith('models/') ? name.slice('models/'.length) : name;
}

export function parseModelCall(rest: string): ModelCall {
  const name = modelOfPath(rest);
  const colon = name.lastIndexOf(':');
  // A `:` inside the model's own name (`llama3:8b`) followed by nothing that looks like a method is no call.
  if (colon === -1 || !/^[a-zA-Z]+$/.test(name.slice(colon + 1))) return { model: name, method: null };
  return { model: name.slice(0, colon), method: name.slice(colon + 1) };
}
