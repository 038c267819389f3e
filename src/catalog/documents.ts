/**
 * The documents the catalog quotes, by digest: a report names the exact text its checks
 * were judged by. The harness ships the clauses (spec-clauses.ts, contract-clauses.ts), not
 * the documents; a unit test holds these digests against ../shared (test/catalog/documents.test.ts),
 * so a changed spec fails it until the clauses are reviewed and the digest updated here.
 */

/** ../shared/spec/service-interface.md, sha256 of its bytes. */
export const SPEC_DOCUMENT = {
  name: 'service-interface.md',
  sha256: '7de89c3f9a07df3b6d1884d77d46b7f2ea64def361b7639d620a66cd6fb40dde',
} as const;

/** ../shared/contracts/control-interface.md: the version its title names ("contract 1"), which `/capabilities` answers, and its digest. */
export const CONTROL_CONTRACT = {
  name: 'control-interface.md',
  version: 1,
  sha256: '2ff4bd9fcdd24d3d42fef7c7982a34e27641e9e7ce426a63164d3cd4de69d4ba',
} as const;
