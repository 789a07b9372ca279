/**
 * The op's perf scenarios: `opgate perf check --scenarios perf/scenarios.ts` counts each one's instructions per
 * iteration under valgrind (callgrind) and compares them with perf/expected.json; `opgate perf record` stores them in
 * the results database, the history the dashboards chart.
 */
import { callOp, type Tensor, torch } from 'opgate';
import type { PerfScenario } from 'opgate/testing';
import '../ops/scale_shift.ts';

const input = (n: number) => torch.linspace(-1, 1, n) as Tensor;

const scenarios: PerfScenario[] = [
  {
    name: 'scale_shift_1elem',
    description: 'myops::scale_shift of a 1-element float32 tensor (dispatch overhead of a custom op)',
    k: 200,
    setup: () => {
      const x = input(1);
      return () => callOp('myops::scale_shift', [x]);
    },
  },
  {
    name: 'scale_shift_64k',
    description: 'myops::scale_shift of 65,536 float32 elements (the cpu kernel)',
    k: 4,
    warmup: 50,
    setup: () => {
      const x = input(65_536);
      return () => callOp('myops::scale_shift', [x]);
    },
  },
];
export default scenarios;
