import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { App } from './types.ts';

/** OpenAPI 3.1 generated from the route schemas, served at /api/v1/openapi.json and browsable at /docs. */
export async function registerOpenApi(app: App): Promise<void> {
  // The reference page and its assets need no token.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...route.config, public: true };
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Utility Management Service',
        version: '1.0.0',
        description: 'Organizations, building blocks, meters, electricity tariffs and electricity data.',
      },
      servers: [{ url: 'http://127.0.0.1:3000' }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearerAuth: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/api/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
