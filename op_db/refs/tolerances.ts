/**
 * PyTorch's default comparison tolerances per dtype (torch.testing's assert_close, which TestCase.assertEqual
 * uses), recorded from PyTorch 1.13 by tools/golden/record_tolerances.py into torch_tolerances.json: the oracles'
 * defaults are this table, not numbers typed by hand.
 */
import type { DType } from '../../src/runtime/index.ts';
import type { Tolerance } from '../types.ts';
import table from './torch_tolerances.json' with { type: 'json' };

export const PYTORCH_TOLERANCES = table.tolerances as Readonly<Record<DType, Tolerance>>;
