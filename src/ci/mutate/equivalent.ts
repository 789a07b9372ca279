/** An equivalent mutant's declaration: which mutants it matches (by file, operator and line text) and why. */
export interface Equivalent {
  readonly file: string;
  readonly operator: string;
  /** A substring of the original line. */
  readonly original: string;
  /** A substring of the mutated line (absent: any mutant of that line by that operator). */
  readonly mutated?: string;
  /** A substring the mutant removed (the original has it, the mutated line no longer does). */
  readonly dropped?: string;
  readonly reason: string;
}
