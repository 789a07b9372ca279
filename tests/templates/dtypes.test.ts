import { defineMatrixTests } from './matrix.ts';

defineMatrixTests('dtypes');
