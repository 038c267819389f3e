/**
 * One exchange of the harness with a target, as evidence: the shape the HTTP client records
 * (src/http/tally.ts), a failing assertion hands over (CheckFailure, src/errors.ts) and the
 * reports show. Its own module, importing nothing, so that both sides can name it.
 */

/**
 * One exchange as a report shows it under a verdict: what was sent and what came back, every
 * secret masked and the target's text made printable when it is recorded.
 */
export interface Exchange {
  request: string;
  /** The answer's status, or why there was none. */
  answer: number | string;
  /** The answer's headers that decide verdicts (content type, Retry-After, Location, WWW-Authenticate). */
  headers?: Record<string, string>;
  /** The start of the answer's body. */
  body?: string;
  /** The same request as a `curl` command, secrets as placeholders ("$SVC_TOKEN"): an HTTP check's reproduce line. */
  reproduce?: string;
  /** Set on the exchange a failing assertion judged: the report shows it first. */
  judged?: true;
}
