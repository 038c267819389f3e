/**
 * The one registry through which every check is declared, service and receiver alike
 * (schemathesis's habit): the declaring module names the area whose checks it declares, and
 * each `check('ID', body)` is held to the catalog once, here. A check must be a check of the
 * registry's subject, of the area being declared, and declared once (RegistrationError
 * otherwise). Each declaration records where its body is (`path:line`, from the caller's stack
 * frame as it is declared), so the documents that point at bodies read them from here, never
 * from the source text.
 */
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogEntry, type Subject } from '../catalog/checks.js';
import { RegistrationError } from '../errors.js';

export interface Declaration<A extends string, Body> {
  id: string;
  area: A;
  body: Body;
  /** `path:line` of the `check(…)` call that declared it, the path from the project's root. */
  location: string;
}

export interface RegistryOptions<A extends string> {
  subject: Subject;
  /** Who declared a check in `area`, as a message says it ("suites/tokens.suite.ts declares it"). */
  declaresIt: (area: A) => string;
  /** The declaring function's name, for a message ("certifySuite()"). */
  suiteFunction: string;
}

export class Registry<A extends string, Body> {
  private readonly declared = new Map<string, Declaration<A, Body>>();
  private declaringArea: A | undefined;

  constructor(private readonly options: RegistryOptions<A>) {}

  /** Runs `declare` with `area` as the area being declared. */
  inArea(area: A, declare: () => void): void {
    this.declaringArea = area;
    try {
      declare();
    } finally {
      this.declaringArea = undefined;
    }
  }

  /**
   * Declares check `id` with `body`, checked against the catalog; `declaredBy` is the public
   * function the declaring file called (its frame and those below it are not the body's place).
   */
  declare(id: string, body: Body, declaredBy: (...args: never[]) => unknown): Declaration<A, Body> {
    const spec = catalogEntry(id);
    const { subject, declaresIt, suiteFunction } = this.options;
    if (spec?.subject !== subject)
      throw new RegistrationError(`unknown ${subject} check id ${id}: add it to src/catalog/checks.ts first`);
    if (this.declaringArea === undefined)
      throw new RegistrationError(`check ${id} is declared outside ${suiteFunction}`);
    if (spec.area !== this.declaringArea)
      throw new RegistrationError(
        `check ${id} belongs to ${spec.area} in the catalog, but ${declaresIt(this.declaringArea)}`,
      );
    const earlier = this.declared.get(id);
    if (earlier)
      throw new RegistrationError(
        `check ${id} is declared twice: ${earlier.location} and ${callerLocation(declaredBy)}`,
      );
    const declaration = { id, area: this.declaringArea, body, location: callerLocation(declaredBy) };
    this.declared.set(id, declaration);
    return declaration;
  }

  /** Every check declared so far in this process, in the order declared. */
  declarations(): ReadonlyMap<string, Declaration<A, Body>> {
    return this.declared;
  }
}

/** `path:line` of the code that called `fn`, the path from the working directory (the project's root). */
export function callerLocation(fn: (...args: never[]) => unknown): string {
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, fn);
  const frame = holder.stack?.split('\n').find((line) => /^\s+at /.test(line));
  const where = frame && /\(?((?:file:\/\/)?[^\s()]+):(\d+):\d+\)?$/.exec(frame.trim());
  if (!where) return 'unknown';
  const file = where[1]!.startsWith('file://') ? fileURLToPath(where[1]!) : where[1]!;
  return `${relative(process.cwd(), file).split(sep).join('/')}:${where[2]}`;
}
