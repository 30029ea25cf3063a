import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { API_TYPES_PATH, apiTypesOf, serviceOpenApiDocument } from './api-types.ts';

it("keeps the console's API types equal to the service's OpenAPI document (npm run console:api-types)", async () => {
  const generated = await apiTypesOf(await serviceOpenApiDocument());
  expect(generated === readFileSync(API_TYPES_PATH, 'utf8')).toBe(true);
}, 60_000);
