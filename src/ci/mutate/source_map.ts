/**
 * Generated-code offsets of source lines, through a script's inline source map (the `data:` URL tsx appends to
 * every module it compiles): V8's coverage speaks in offsets of the code it ran, the mutants in lines of the
 * TypeScript source. Only what the reach pass needs: VLQ mappings decoded, single-source maps.
 */
import { CiError } from '../errors.ts';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...B64].map((c, i) => [c, i]));

/** The VLQ fields of one mapping segment. */
function decodeSegment(seg: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const c of seg) {
    const d = DIGIT.get(c);
    if (d === undefined)
      throw new CiError('E_FILE_INVALID', `source map: bad VLQ character ${JSON.stringify(c)}`);
    value += (d & 31) << shift;
    if (d & 32) {
      shift += 5;
      continue;
    }
    out.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return out;
}

/** The source map JSON inlined at the end of `code`, or null. */
function inlineMap(code: string): { mappings: string } | null {
  const m =
    /\/\/# sourceMappingURL=data:application\/json;(?:charset=utf-8;)?base64,([A-Za-z0-9+/=]+)\s*$/.exec(
      code,
    );
  return m ? (JSON.parse(Buffer.from(m[1], 'base64').toString('utf8')) as { mappings: string }) : null;
}

/**
 * For each of `lines` (1-based source lines), the offsets in `code` of the generated positions mapped from it.
 * Without a source map the code is its own source: a line's offset is its first non-blank character.
 */
export function generatedOffsetsOf(code: string, lines: readonly number[]): Map<number, number[]> {
  const want = new Set(lines);
  const out = new Map<number, number[]>();
  const lineStarts = [0];
  for (let i = 0; i < code.length; i++) if (code.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const map = inlineMap(code);
  if (!map) {
    for (const l of want) {
      const start = lineStarts[l - 1];
      if (start === undefined) continue;
      const text = code.slice(start, lineStarts[l] ?? code.length);
      out.set(l, [start + (text.length - text.trimStart().length)]);
    }
    return out;
  }
  let srcLine = 0;
  let src = 0;
  map.mappings.split(';').forEach((group, genLine) => {
    let genCol = 0;
    if (!group) return;
    for (const seg of group.split(',')) {
      const f = decodeSegment(seg);
      genCol += f[0];
      // [generated column, source index, source line, source column, name]: the column is not needed.
      if (f.length < 4) continue;
      src += f[1];
      srcLine += f[2];
      const line = srcLine + 1;
      if (src !== 0 || !want.has(line)) continue;
      const offset = (lineStarts[genLine] ?? 0) + genCol;
      out.set(line, [...(out.get(line) ?? []), offset]);
    }
  });
  return out;
}
