import { defineMatrixTests } from './matrix.ts';

defineMatrixTests('gradgradcheck');
