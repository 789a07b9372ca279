export { type BuildOptions, type BuildReport, buildDashboard } from './build.ts';
export { registerDashboardCommands } from './cli.ts';
export { DOCUMENTS, isDocument, openReadOnly, PER_COMMIT, testsData } from './data/index.ts';
export { DashboardError, type DashboardErrorCode } from './errors.ts';
export { type SeedFacts, type SeedOptions, seedDemoDb } from './seed.ts';
export { type RunningDashboard, type ServeOptions, serveDashboard } from './serve.ts';

/** Headless Debian Chromium (playwright-core, a dev dependency: loaded only when asked for). */
export async function launchChromium() {
  return (await import('./e2e/browser.ts')).launchChromium();
}
