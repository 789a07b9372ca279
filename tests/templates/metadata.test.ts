import { defineMatrixTests } from './matrix.ts';

defineMatrixTests('metadata');
