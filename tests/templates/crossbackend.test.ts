import { defineMatrixTests } from './matrix.ts';

defineMatrixTests('crossbackend');
