// The routes of Anthropic Messages (POST /v1/messages, /v1/messages/count_tokens, and under /api/v1).

import type { FastifyInstance } from 'fastify';
import type { ChatRouteContext } from '../../chat-completions-route.js';

export function registerAnthropicRoutes(_server: FastifyInstance, _context: ChatRouteContext): void {}
