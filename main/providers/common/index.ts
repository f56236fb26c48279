export { isHttpUrl, parseDataUrl, type DataUrl } from './data-url.js';
export { textOf, textsOf } from './content-text.js';
export { parseToolArguments } from './tool-arguments.js';
export { newToolCallId } from './tool-call-id.js';
export { offeredTools, plainToolChoice, type PlainToolChoice } from './allowed-tools.js';
export { tokenCount, tokenCountsSchema } from './token-counts.js';
export { urlCitation, type UrlCitation } from './url-citation.js';
