/**
 * The minimal logging surface the domain needs. The HTTP adapter passes Fastify's pino logger,
 * which satisfies it; tests pass a silent or capturing logger.
 */
export interface Logger {
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};
