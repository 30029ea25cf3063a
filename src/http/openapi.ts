import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { DOCS_THEME_CSS } from './docs-theme.ts';
import { markPlaceholders } from './examples.ts';
import { createKeptDocument } from './kept-answers.ts';
import { declareResponseHeaders } from './response-headers.ts';
import { transportFailures } from './responses.ts';
import { shareFailures } from './shared-failures.ts';
import { withTextBodies } from './text-bodies.ts';
import type { App } from './types.ts';

const DESCRIPTION = `Organizations, building blocks, meters, electricity tariffs and electricity data.

Sign in with \`POST /api/v1/auth/login\` (the demo: demo@example.com / demo-password), send the
\`access_token\` as \`Authorization: Bearer <token>\` (the Authorize button), and take an
organization's id from \`GET /api/v1/auth/organizations\` as \`account_id\`.

Every answer is an envelope: \`{ success: true, message, data, count? }\` or
\`{ success: false, message, error, code }\`; 204 has no body. \`code\` is a stable UPPER_SNAKE name
for a program to act on (each response lists its codes: the general one of the status, e.g.
VALIDATION_FAILED, and the finer ones such as EMAIL_TAKEN); \`message\` and \`error\` are for people.
Every answer carries \`X-Request-Id\`: the client's when it sent a valid one (1 to 128 of
\`A-Z a-z 0-9 . _ : -\`), else a new uuid; the log lines of the request carry it. Invalid query
parameters are 400 \`Invalid query\`, invalid path parameters 400 \`Invalid path\`. Checks run in this order: 401 (no valid
token), 400 (invalid input, \`error\` naming each field), 400 \`Catalogue is read-only\` for a write
on the catalogue, 403 (not a member of account_id, a role that may not do this, or a record of
another organization), 404 (no such record). Roles: every member reads; OWNER and ADMIN write;
OWNER alone deletes an organization and manages owners.

Limits that apply to every route: request bodies up to 1 MiB (16 MiB for readings) else 413,
JSON only else 415, URL up to 8 KiB else 414, headers up to 16 KiB else 431, a whole request
within REQUEST_TIMEOUT_S (30 s) else 408; 503 with Retry-After while the database is unavailable
or busy. Lists take page (from 1), limit (1 to 100, default 10), query (text search), sortBy and
sortOrder (also spelled sort_by and sort_order); a query parameter that an operation does not name is
400 \`Invalid query\`. Text fields refuse the NUL character (their pattern; 400 naming the field), and
instants are from 1900-01-01T00:00:00Z up to 9999-01-01T00:00:00Z.

The examples use the demo data of a fresh install (SEED_DEMO): its building blocks, meters, serials
and tariffs have the same ids on every install. Its organization and user ids are uuids that each
install makes anew: the examples' uuids (00000000-0000-4000-8000-00000000000n) are placeholders,
and each parameter that shows one says what to use instead.`;

const TAGS = [
  ['Authentication', 'Sign up, sign in, tokens, and the organizations of a user'],
  ['Organizations', 'Organizations and their members (roles OWNER, ADMIN, MEMBER)'],
  ['Building blocks', 'The building tree of an organization: sites, buildings, units'],
  ['Meters', 'Meters of the building blocks'],
  ['Gateways', 'Data loggers on site that push readings of their meters with a key of their own'],
  ['Energy dashboard config', 'The meters and tariffs of a building block’s energy sources'],
  ['Tariffs', 'Electricity and water tariffs of an organization'],
  ['Tariff items', 'The priced items of a tariff'],
  ['Tariff item blocks', 'The tiers of a BLOCK tariff’s items'],
  ['Tariff transitions', 'A tariff’s successor from a given instant'],
  ['Tariff catalogue', 'Published tariffs, readable by every user, to clone into an organization'],
  ['Reference data', 'Tariff item types, DSOs and time-of-use schedules'],
  ['Electricity timeseries', 'Interval readings of electricity meters: ingest, profiles, sums'],
  ['Water timeseries', 'Water meters in kL: interval readings, register reads, volume sums and profiles'],
  ['Energy cost', 'Bills computed from readings and tariffs'],
  ['Tariff comparison', 'What a building block’s source would cost on other tariffs'],
  ['Invoices', 'The utility’s invoices, checked against the computed bills'],
  ['Tenant recovery', 'The landlord’s supply against what its tenants’ meters bill'],
  ['Administration', 'User management with the service-role key'],
].map(([name, description]) => ({ name: name!, description: description! }));

/** OpenAPI 3.1 generated from the route schemas, served at /api/v1/openapi.json and browsable at /docs. */
export async function registerOpenApi(app: App): Promise<void> {
  const document = createKeptDocument(app, () => app.swagger());
  app.addHook('onRoute', (route) => {
    // The reference page and its assets need no token; the page reads the document kept as bytes.
    if (route.url.startsWith('/docs')) route.config = { ...route.config, public: true };
    if (route.url === '/docs/json') route.handler = (req, reply) => document(req, reply);
    else if (route.schema && !route.schema.hide) {
      // The document's default is the access token: operations that need no token, or the
      // service-role key instead, say so.
      if (route.config?.public) route.schema = { ...route.schema, security: [] };
      else if (route.config?.serviceRole) route.schema = { ...route.schema, security: [{ serviceRoleKey: [] }] };
      else if (route.config?.gatewayKeys) {
        route.schema = { ...route.schema, security: [{ bearerAuth: [] }, { gatewayKey: [] }] };
      }
      if (route.schema.response) {
        const response = route.schema.response as Record<number, unknown>;
        route.schema = {
          ...route.schema,
          response: { ...transportFailures(route.schema.body !== undefined), ...response },
        };
      }
    }
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Utility Management Service', version: '1.0.0', description: DESCRIPTION },
      // Relative: "Try it out" calls the host and port the reference page was loaded from.
      servers: [{ url: '/' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The access token of a user',
          },
          serviceRoleKey: { type: 'http', scheme: 'bearer', description: "The server's SERVICE_ROLE_KEY" },
          gatewayKey: {
            type: 'apiKey',
            in: 'header',
            name: 'authorization',
            description: "A gateway's key, sent as `Gateway <key>` (the readings routes only)",
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    transform: (route) => withTextBodies(jsonSchemaTransform(route)),
    transformObject: (document) =>
      'openapiObject' in document
        ? markPlaceholders(shareFailures(declareResponseHeaders(document.openapiObject)))
        : {},
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Without the top bar: its address field and logo served no reader of this one document. The
    // tags open on a click, and the schemas are read with their operations: drawing every
    // operation and schema at once held a loaded machine's first view of the page for seconds.
    uiConfig: { layout: 'BaseLayout', docExpansion: 'none', defaultModelsExpandDepth: -1 },
    theme: { css: [{ filename: 'contrast.css', content: DOCS_THEME_CSS }] },
  });
  app.get('/api/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, (req, reply) =>
    document(req, reply),
  );
}
