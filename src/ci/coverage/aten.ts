/**
 * PyTorch 1.13's aten schemas (`op_db/torch_aten_schemas.txt`, from `torch._C._jit_get_all_schemas()`), and the
 * overloads of an op among them: the ones its base name, its in-place `name_` and its `.out` overloads share.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseSchema, type Schema } from '../../runtime/index.ts';
import { CiError } from '../errors.ts';

const REPO = resolve(import.meta.dirname, '../../..');
export const ATEN_SCHEMAS = resolve(REPO, 'op_db/torch_aten_schemas.txt');

type ArgType = Schema['args'][number]['type'];
const mentionsTensor = (t: ArgType): boolean => t.base === 'Tensor' || t.contained.some(mentionsTensor);

/**
 * TorchScript-only schemas: no Tensor among the arguments or the returns (`add.int(int a, int b) -> int`,
 * `add.str`, `add.t(t[] a, t[] b)` on lists). They are the interpreter's builtins on Python values, not callable
 * through the Python tensor API (`torch.add` / `Tensor.add`), so schema coverage does not list them.
 */
export function isTorchScriptOnly(s: Schema): boolean {
  return !s.args.some((a) => mentionsTensor(a.type)) && !s.returns.some((r) => mentionsTensor(r.type));
}

let cached: readonly Schema[] | null = null;

/** Every schema of the file, parsed (cached per process). */
export function atenSchemas(path: string = ATEN_SCHEMAS): readonly Schema[] {
  if (path === ATEN_SCHEMAS && cached) return cached;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new CiError('E_FILE_NOT_FOUND', `aten schemas: ${path} does not exist`);
  }
  const schemas = text
    .split('\n')
    .filter((l) => l.startsWith('aten::'))
    .map((l) => parseSchema(l));
  if (path === ATEN_SCHEMAS) cached = schemas;
  return schemas;
}

/** The name groups of an op's overloads: `add` and `add_`; an op that is itself in-place (`fill_`) alone. */
export function overloadNames(base: string): readonly string[] {
  return base.endsWith('_') ? [base] : [base, `${base}_`];
}

export interface AtenOverloads {
  /** The overloads schema coverage lists, in file order. */
  readonly listed: readonly Schema[];
  /** TorchScript-only overloads of the same names, left out (see isTorchScriptOnly). */
  readonly torchScriptOnly: readonly Schema[];
}

export function atenOverloadsOf(base: string, schemas: readonly Schema[] = atenSchemas()): AtenOverloads {
  const names = overloadNames(base);
  const mine = schemas.filter((s) => names.includes(s.name));
  return {
    listed: mine.filter((s) => !isTorchScriptOnly(s)),
    torchScriptOnly: mine.filter(isTorchScriptOnly),
  };
}
