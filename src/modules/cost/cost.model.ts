/**
 * What other modules may use of cost (docs/ARCHITECTURE.md, "Layers"): a bill line's answer record,
 * which tenant statements repeat. Its service comes in Deps; every other file of the module is its own.
 */
export { billLine } from './cost.responses.ts';
