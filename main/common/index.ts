// Cross-cutting pieces every folder of main/ may use. A leaf: nothing here imports from another folder of main/
// (decision 010).

export { AnswerCache } from './answer-cache.js';
export { defaultPort } from './default-port.js';
export { createLogger, redactedPaths, type Logger } from './logger.js';
