/** (being written) */
export function registerShapeOps(): void {}
