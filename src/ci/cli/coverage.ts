/** `opgate coverage`: schema coverage of op_db against PyTorch 1.13's aten overloads (src/ci/coverage). */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { opDb } from '../../../op_db/index.ts';
import {
  ATEN_SCHEMAS,
  atenSchemas,
  coverageOk,
  formatCoverage,
  formatPythonCoverage,
  pythonCoverage,
  pythonCoverageOk,
  schemaCoverage,
} from '../coverage/index.ts';
import { CiError } from '../errors.ts';

export function registerCoverageCommand(program: Command): void {
  program
    .command('coverage')
    .description(
      "schema coverage: every aten overload of op_db's ops is implemented and called by a sample, or declared " +
        'unsupported with a reason; arguments exercised by samples; the same for every PyTorch 1.13 Python ' +
        'signature of their spellings (torch.*, Tensor.*, torch.nn.functional.*) and its keywords. Exit 1 when ' +
        'anything is uncovered',
    )
    .option(
      '--json',
      'print JSON: {overloads: {total, implemented, unsupported, uncovered}, arguments, ops, python: {signatures, keywords, spellings}}',
    )
    .option(
      '--schemas <path>',
      'aten schema list (torch._C._jit_get_all_schemas(), one per line)',
      ATEN_SCHEMAS,
    )
    .option('--op <names>', 'only these OpInfos (comma-separated)')
    .action((o: { json?: boolean; schemas: string; op?: string }) => {
      const path = resolve(o.schemas);
      if (!existsSync(path)) throw new CiError('E_FILE_NOT_FOUND', `--schemas: ${o.schemas} does not exist`);
      const names = o.op?.split(',').filter(Boolean);
      const unknown = names?.filter((n) => !opDb.some((i) => i.name === n || i.op === n));
      if (unknown?.length) throw new CiError('E_UNKNOWN_NAME', `--op: unknown op(s): ${unknown.join(', ')}`);
      const infos = names ? opDb.filter((i) => names.includes(i.name) || names.includes(i.op)) : opDb;
      const report = schemaCoverage(infos, { schemas: atenSchemas(path) });
      const python = pythonCoverage(infos);
      console.log(
        o.json
          ? JSON.stringify({ ...report, python }, null, 2)
          : `${formatCoverage(report)}\n\n${formatPythonCoverage(python)}`,
      );
      process.exitCode = coverageOk(report) && pythonCoverageOk(python) ? 0 : 1;
    });
}
