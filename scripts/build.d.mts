// Types of build.mjs, for the TypeScript that imports it (the end-to-end tests and the screenshots).
export function build(): void;
export function buildServer(): void;
export function buildConsole(): void;
export function serverIsStale(): boolean;
export function consoleIsStale(): boolean;
