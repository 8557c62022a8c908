import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** OpenAPI generated from the contract schemas at `/openapi.json`, and a reference page at `/docs`. */
export async function registerOpenApi(app: FastifyInstance, options: { version: string; publicUrl: string }) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Parla API',
        version: options.version,
        description:
          'Voice and audio AI platform. `/v1` and `/v2` follow the public ElevenLabs API, so its SDKs work with only the base URL changed.',
      },
      servers: [{ url: options.publicUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'xi-api-key' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true, uiConfig: { deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
