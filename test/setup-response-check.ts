import { afterEach } from 'vitest';
import { assertNoMismatches } from './helpers/response-schemas.ts';

// Every test fails when an answer it caused does not match its route's declared response schema.
afterEach(() => assertNoMismatches());
