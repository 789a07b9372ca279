import { defineMatrixTests } from './matrix.ts';

defineMatrixTests('property');
