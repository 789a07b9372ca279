/** (being written) */
export function registerIndexing(): void {}
