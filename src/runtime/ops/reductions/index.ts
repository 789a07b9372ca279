/** (being written) */
export function registerReductions(): void {}
