/** Typed dashboard errors: a stable `code`, what was wrong, got vs expected. */
export type DashboardErrorCode = 'E_DB_NOT_FOUND' | 'E_DB_SCHEMA' | 'E_BAD_PARAM' | 'E_NOT_FOUND';

export class DashboardError extends Error {
  constructor(
    readonly code: DashboardErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'DashboardError';
  }
}
