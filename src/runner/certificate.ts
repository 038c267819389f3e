/**
 * What makes a run's reports a certificate a third party can hand over (issue 47): the
 * selection against the tier's whole catalog (a partial run says so, and coverage counts the
 * whole tier), the provenance, and, with CERTIFY_SIGNING_KEY, the signed attestation.
 * The runner (certify.ts) calls it at three points: before the run, on the report, after the
 * reports are written.
 */
import { writeAttestation } from '../attest/write.js';
import { loadSigningKey, type SigningKey } from '../attest/keys.js';
import { CHECKS, getCheck, type CheckSpec } from '../catalog/checks.js';
import type { Settings } from '../config/settings.js';
import { coverageOf } from '../report/coverage.js';
import type { RunReport } from '../report/model.js';
import { provenanceLine, provenanceOf, type ImageProvenance } from '../report/provenance.js';
import { inTier, isPartial, partialLine, selectionOf, unselected, type Selection } from '../report/selection.js';

export interface Certificate {
  selection: Selection;
  /** The console's line for a partial run; undefined for a run of the whole tier. */
  partial?: string;
  signingKey?: SigningKey;
}

/** Before the run: what was selected, and the signing key, refused (exit 2) before any check runs when unusable. */
export function prepareCertificate(
  settings: Settings,
  selected: readonly CheckSpec[],
  rerunFailed?: string,
): Certificate {
  const selection = selectionOf({
    tier: settings.CERTIFY_TIER,
    catalog: CHECKS,
    selected,
    ...(settings.CERTIFY_CHECKS ? { checks: settings.CERTIFY_CHECKS } : {}),
    ...(rerunFailed ? { rerunFailed } : {}),
  });
  const partial = partialLine(selection);
  return {
    selection,
    ...(partial ? { partial } : {}),
    ...(settings.CERTIFY_SIGNING_KEY ? { signingKey: loadSigningKey(settings.CERTIFY_SIGNING_KEY) } : {}),
  };
}

/** The report's selection, provenance and coverage, which counts the checks left out of a partial run as not run. */
export function completeReport(
  report: RunReport,
  certificate: Certificate,
  selected: readonly CheckSpec[],
  settings: Settings,
  image?: ImageProvenance,
): void {
  const { selection } = certificate;
  report.selection = selection;
  report.partial = isPartial(selection);
  report.provenance = provenanceOf({
    ...(settings.CERTIFY_TARGET_VERSION ? { targetVersion: settings.CERTIFY_TARGET_VERSION } : {}),
    ...(image ? { image } : {}),
  });
  const owed = inTier(selection.tier);
  report.coverage = coverageOf(
    [...report.checks, ...unselected(CHECKS, selected, selection)],
    (id) => owed(getCheck(id)),
    settings.CERTIFY_MIN_COVERAGE,
  );
}

/** The lines the console prints about the run before its summary: partial run, provenance. */
export function certificateLines(report: RunReport, certificate: Certificate): string[] {
  return [
    ...(certificate.partial ? [certificate.partial] : []),
    ...(report.provenance ? [`provenance: ${provenanceLine(report.provenance)}`] : []),
  ];
}

/** After the reports are written: the signed attestation over them, when a key was given; its path, or none. */
export function sealReports(
  report: RunReport,
  files: readonly string[],
  dir: string,
  certificate: Certificate,
): string[] {
  return certificate.signingKey ? [writeAttestation(report, files, dir, certificate.signingKey)] : [];
}
