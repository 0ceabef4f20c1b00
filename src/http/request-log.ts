/**
 * One log line per request (reqId from the request's child logger, method, url, status, ms)
 * instead of Fastify's two: logging is a measurable part of serving a cached task list.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: req.method,
      url: req.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) req.log.error({ ...line, err: error }, 'request errored');
    else req.log.info(line, 'request completed');
  }
}
