export { type BuildOptions, type BuildReport, buildDashboard } from './build.ts';
export { registerDashboardCommands } from './cli.ts';
export { DashboardError, type DashboardErrorCode } from './errors.ts';
export { type RunningDashboard, type ServeOptions, serveDashboard } from './serve.ts';
