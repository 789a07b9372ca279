// The types of bin/source_aliases.mjs (vitest.config.ts imports it).
export function hasSources(): boolean;
export function sourceAliases(): Record<string, string>;
