import { defineMatrixTests } from './matrix.ts';

defineMatrixTests('gradcheck');
