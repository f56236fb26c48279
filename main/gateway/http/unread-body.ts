// A request answered before its body was read (a body over the size limit, a missing key) must still let its
// client read the answer. Closing the connection while the client is still sending makes the client's kernel meet
// the rest of the upload with a reset, which throws away the answer the client has not read yet: it sees a broken
// pipe and no status, and an SDK retries the whole upload. So the connection stays open and the rest of the body
// is read and dropped, up to maxDiscardedBodyBytes; a client still sending after that has its connection closed.

import type { FastifyReply, FastifyRequest } from 'fastify';

/** How much of a body the gateway reads and drops after answering without it. */
export const maxDiscardedBodyBytes = 64 * 1024 * 1024;

/**
 * Called before the answer to a request whose body is not read whole: keeps the connection open while the rest
 * arrives (Fastify asks to close it after a body over the limit), and drops the rest as it comes.
 */
export function discardUnreadBody(request: FastifyRequest, reply: FastifyReply): void {
  const body = request.raw;
  if (body.complete) return;
  if (reply.getHeader('connection') === 'close') reply.removeHeader('connection');
  let discarded = 0;
  const drop = (piece: Buffer) => {
    discarded += piece.length;
    if (discarded > maxDiscardedBodyBytes) {
      body.off('data', drop);
      body.socket.destroy();
    }
  };
  body.on('data', drop);
  body.once('end', () => body.off('data', drop));
}
