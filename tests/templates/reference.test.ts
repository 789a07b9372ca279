import { defineMatrixTests } from './matrix.ts';

defineMatrixTests('reference');
