/** A quoted sentence of the spec (spec-clauses.ts) or of the control contract (contract-clauses.ts, whose sections start "Control interface"). */
export interface SpecClause {
  /** Heading path, with a label for an unheaded part ("Errors > Rules"). */
  section: string;
  /** The spec's own words. */
  text: string;
  /** Why no check covers it, or what a check cannot see. */
  note?: string;
}
