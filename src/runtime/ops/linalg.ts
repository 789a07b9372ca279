/** (being written) */
export function registerLinalg(): void {}
