import { defineMatrixTests } from './matrix.ts';

defineMatrixTests('compile');
