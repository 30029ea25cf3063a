// Writes console/src/api/schema.d.ts from the service's OpenAPI document: `npm run console:api-types`.
import { writeFileSync } from 'node:fs';
import { API_TYPES_PATH, apiTypesOf, serviceOpenApiDocument } from './api-types.ts';

writeFileSync(API_TYPES_PATH, await apiTypesOf(await serviceOpenApiDocument()));
console.log(`Wrote ${API_TYPES_PATH.pathname}`);
