// The routes of the Gemini API (/v1beta/models/{model}:generateContent and friends, and under /api).

import type { FastifyInstance } from 'fastify';
import type { ChatRouteContext } from '../../chat-completions-route.js';

export function registerGeminiRoutes(_server: FastifyInstance, _context: ChatRouteContext): void {}
