import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** OpenAPI generated from the contract schemas at `/openapi.json`, and a reference page at `/docs`. */
export async function registerOpenApi(
  app: FastifyInstance,
  options: {
    version: string;
    publicUrl: string /** The product mark (SVG) for the page header. */;
    logoSvg?: Buffer;
  },
) {
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
  // The app-wide helmet CSP applies; swagger-ui's own static CSP blocks the inline styles the UI sets.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: false,
    uiConfig: { deepLinking: true },
    ...(options.logoSvg ? { logo: { type: 'image/svg+xml', content: options.logoSvg, href: '/' } } : {}),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
