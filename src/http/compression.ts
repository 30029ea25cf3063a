import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where `npm run build` puts Swagger UI's assets with their .br and .gz copies (the same from src/ and dist/). */
export const BUILT_SWAGGER_UI = fileURLToPath(new URL('../../dist/swagger-ui', import.meta.url));

/** The route of Swagger UI's assets (its scripts and styles), under the reference page at /docs. */
const SWAGGER_UI_ASSETS = '/docs/static/*';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Answers of at least 1 KB are compressed with brotli or gzip when the client accepts one;
 * static files go as the build compressed them. To be registered before any route: the
 * compression hook is added to each route as it is declared.
 *
 * `reply.sendFile(file, directory)` sends file's .br or .gz copy when there is one and the client
 * accepts it (the console's files, and Swagger UI's from swaggerUiDirectory). Without that
 * directory (the service run from its sources, unbuilt) Swagger UI's own files are sent,
 * compressed on each request.
 */
export async function registerCompression(app: FastifyInstance, swaggerUiDirectory: string): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    // Request bodies: the API reads JSON as sent, without a Content-Encoding.
    globalDecompression: false,
  });
  await app.register(fastifyStatic, { serve: false, preCompressed: true });
  if (!existsSync(swaggerUiDirectory)) return;
  app.addHook('onRoute', (route) => {
    if (route.url !== SWAGGER_UI_ASSETS) return;
    route.handler = (request, reply) => reply.sendFile((request.params as { '*': string })['*'], swaggerUiDirectory);
  });
}
