export { createProgram } from './program.js';
export { defaultPort } from './serve-command.js';
