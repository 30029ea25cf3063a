// Types of build.mjs, for the TypeScript that imports it (the end-to-end tests and the screenshots).
export function build(): Promise<void>;
export function buildServer(): Promise<void>;
export function buildConsole(): Promise<void>;
export function serverIsStale(): boolean;
export function consoleIsStale(): boolean;
