import { defineMatrixTests } from './matrix.ts';

defineMatrixTests('backward');
