/** The one check registry: the catalog's guards, held once, and where each body is declared. */
import { describe, expect, it } from 'vitest';
import { CHECKS, RECEIVER_CHECKS } from '../../src/catalog/checks.js';
import { callerLocation, Registry } from '../../src/check/registry.js';
import { RegistrationError } from '../../src/errors.js';

const service = CHECKS[0]!;
const other = CHECKS.find((spec) => spec.area !== service.area)!;
const receiver = RECEIVER_CHECKS[0]!;

function serviceRegistry() {
  return new Registry<string, string>({
    subject: 'service',
    declaresIt: (area) => `suites/${area}.suite.ts declares it`,
    suiteFunction: 'certifySuite()',
  });
}

/** Declares `id` as a declaring file's `check(…)` would: the location is this function's caller. */
function declareHere(registry: Registry<string, string>, id: string, body: string): void {
  registry.declare(id, body, declareHere);
}

/** The line below the caller's. */
function nextLine(): number {
  return Number(/:(\d+)$/.exec(callerLocation(nextLine))![1]) + 1;
}

describe('Registry', () => {
  it('records each declaration with the file and line of the call that made it', () => {
    const registry = serviceRegistry();
    let line = 0;
    registry.inArea(service.area, () => {
      line = nextLine();
      declareHere(registry, service.id, 'body');
    });
    expect(registry.declarations().get(service.id)).toEqual({
      id: service.id,
      area: service.area,
      body: 'body',
      location: `test/check/registry.test.ts:${line}`,
    });
  });

  it('refuses an id of the other subject, or none of the catalog', () => {
    const registry = serviceRegistry();
    registry.inArea(service.area, () => {
      expect(() => registry.declare(receiver.id, 'body', serviceRegistry)).toThrow(
        `unknown service check id ${receiver.id}`,
      );
      expect(() => registry.declare('NOT-A-CHECK', 'body', serviceRegistry)).toThrow(RegistrationError);
    });
  });

  it('refuses a check declared outside its area, or outside any', () => {
    const registry = serviceRegistry();
    expect(() => registry.declare(service.id, 'body', serviceRegistry)).toThrow(
      `check ${service.id} is declared outside certifySuite()`,
    );
    registry.inArea(other.area, () => {
      expect(() => registry.declare(service.id, 'body', serviceRegistry)).toThrow(
        `check ${service.id} belongs to ${service.area} in the catalog, but suites/${other.area}.suite.ts declares it`,
      );
    });
  });

  it('refuses a check declared twice, naming both places', () => {
    const registry = serviceRegistry();
    registry.inArea(service.area, () => {
      declareHere(registry, service.id, 'first');
      expect(() => declareHere(registry, service.id, 'again')).toThrow(
        /is declared twice: test\/check\/registry\.test\.ts:\d+ and test\/check\/registry\.test\.ts:\d+/,
      );
    });
    expect(registry.declarations().get(service.id)?.body).toBe('first');
  });
});
