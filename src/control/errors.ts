/** A control-interface request the target refused or could not answer. */
export class ControlError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'ControlError';
  }

  /** The target answered with a 4xx: "refused" in the contract's words. */
  get refused(): boolean {
    return this.status !== undefined && this.status >= 400 && this.status < 500;
  }
}
