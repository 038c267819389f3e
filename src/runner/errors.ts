/** The run itself could not happen (contract exit code 2): bad settings, unreachable target, refusal. */
export class RunAbort extends Error {
  override name = 'RunAbort';
}
