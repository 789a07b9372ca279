/** (being written) */
export function registerSorting(): void {}
