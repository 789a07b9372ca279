import { defineMatrixTests } from '../../src/ci/index.ts';
import { faults } from './fixtures.ts';

await defineMatrixTests('golden', faults);
