// Answers in the shape of the protocol the request's route speaks (error-shapes.ts): an error, or what the
// pipeline's Outcome says (a body, an error, or nothing when the caller has left).

import type { FastifyReply } from 'fastify';
import type { ApiError } from '../../../shared/api/index.js';
import { errorBody, errorShapeOf } from './error-shapes.js';
import type { Outcome } from './exchange.js';

/** Answers with `error` in the shape of the protocol the request's route speaks. */
export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  const body = errorBody(errorShapeOf(reply.request), error);
  return reply.code(error.status).headers(error.headers).send(body);
}

const asIs = <Body>(body: Body): unknown => body;

/** Puts an outcome on the wire: `toBody` turns its answer into the caller's protocol. */
export function sendOutcome<Body>(
  reply: FastifyReply,
  outcome: Outcome<Body>,
  toBody: (body: Body) => unknown = asIs,
): FastifyReply | undefined {
  switch (outcome.kind) {
    case 'answer':
      return reply.code(200).send(toBody(outcome.body));
    case 'error':
      return sendError(reply, outcome.error);
    case 'caller-gone':
      reply.hijack(); // nobody to answer
      return undefined;
  }
}

/**
 * `X-Switchyard-Cache: hit|miss|bypass`, what the response cache did (decision 031); nothing when it is off. On the
 * raw response, so that a stream's head (sse-writer.ts) carries it as a whole answer's does.
 */
export function noteCacheResult(reply: FastifyReply, result: string | undefined): void {
  if (result) reply.raw.setHeader('x-switchyard-cache', result);
}
