// The routes of the OpenAI Responses API (POST /v1/responses and /api/v1/responses).

import type { FastifyInstance } from 'fastify';
import type { ChatRouteContext } from '../../chat-completions-route.js';

export function registerResponsesRoutes(_server: FastifyInstance, _context: ChatRouteContext): void {}
