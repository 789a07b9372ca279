/** The generated documentation pages (docs/deviations.md, docs/cli.md): rendering, staleness and writing. */
export { commandPath, HELP_WIDTH, helpText, renderCliReference, walkCommands } from './cli_reference.ts';
export { renderDeviations } from './deviations.ts';
export { prose } from './markdown.ts';
export { GENERATED_PATHS, type GeneratedPage, renderPages, stalePages, writePages } from './pages.ts';
