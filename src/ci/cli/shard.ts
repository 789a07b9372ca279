/** `opgate shard plan` and `opgate merge`: sharding by history and merging shard databases. */
import type { Command } from 'commander';

export function registerShardCommands(program: Command): void {
  void program;
}
