/** `opgate bc check|update`: the schema backward/forward-compatibility gate (implemented in src/ci/bc). */
import type { Command } from 'commander';

export function registerBcCommands(program: Command): void {
  void program;
}
