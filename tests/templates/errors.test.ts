import { defineMatrixTests } from './matrix.ts';

defineMatrixTests('errors');
