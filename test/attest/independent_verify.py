"""An attestation of `svc-harness certify`, verified by implementations that share no code with
the harness: securesystemslib's DSSE envelope and key classes (signature over PAE, DER ECDSA or
Ed25519), and the in-toto attestation framework's Statement v1 and test-result predicate
bindings (protobuf, parsed strictly: an unknown field fails). Then every report subject's
sha256 is compared with the file. Exit 0 and one line per finding when it holds; exit 1 with
the reason when it does not.

usage: independent_verify.py <attestation.intoto.json> <public.pem> <reports dir>
"""
import base64
import hashlib
import json
import os
import sys

from cryptography.hazmat.primitives import serialization
from google.protobuf import json_format
from in_toto_attestation.predicates.test_result.v0 import test_result_pb2
from in_toto_attestation.v1 import statement_pb2
from in_toto_attestation.v1.statement import Statement
from securesystemslib.dsse import Envelope
from securesystemslib.signer import SSlibKey

PAYLOAD_TYPE = "application/vnd.in-toto+json"
PREDICATE_TYPE = "https://in-toto.io/attestation/test-result/v0.1"


def main(attestation_path, public_key_path, reports_dir):
    with open(public_key_path, "rb") as handle:
        public_key = serialization.load_pem_public_key(handle.read())
    spki = public_key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    keyid = hashlib.sha256(spki).hexdigest()
    key = SSlibKey.from_crypto(public_key, keyid=keyid)

    with open(attestation_path, "rb") as handle:
        envelope = Envelope.from_dict(json.load(handle))
    if envelope.payload_type != PAYLOAD_TYPE:
        raise SystemExit(f"payloadType {envelope.payload_type!r} is not {PAYLOAD_TYPE}")
    accepted = envelope.verify([key], 1)
    print(f"securesystemslib {key.scheme}: DSSE signature verified by keyid {', '.join(accepted)}")

    statement_pb = json_format.Parse(envelope.payload, statement_pb2.Statement())
    Statement.copy_from_pb(statement_pb).validate()
    if statement_pb.predicate_type != PREDICATE_TYPE:
        raise SystemExit(f"predicateType {statement_pb.predicate_type!r} is not {PREDICATE_TYPE}")
    predicate = json_format.Parse(json.dumps(json.loads(envelope.payload)["predicate"]), test_result_pb2.TestResult())
    if predicate.result not in ("PASSED", "WARNED", "FAILED"):
        raise SystemExit(f"result {predicate.result!r} is none of PASSED, WARNED, FAILED")
    print(f"in-toto-attestation: Statement v1 valid, {len(statement_pb.subject)} subjects, predicate {PREDICATE_TYPE} parsed strictly")

    for subject in statement_pb.subject:
        path = os.path.join(reports_dir, subject.name)
        if subject.media_type.startswith("application/vnd.oci."):
            print(f"subject {subject.name}: image sha256:{subject.digest['sha256']} (not a file)")
            continue
        with open(path, "rb") as handle:
            actual = hashlib.sha256(handle.read()).hexdigest()
        if actual != subject.digest["sha256"]:
            raise SystemExit(f"subject {subject.name}: sha256 {actual} differs from the attested {subject.digest['sha256']}")
        print(f"subject {subject.name}: sha256 matches")
    print(
        f"result {predicate.result}: {len(predicate.passed_tests)} passed, {len(predicate.warned_tests)} warned, "
        f"{len(predicate.failed_tests)} failed; configuration: {', '.join(item.name for item in predicate.configuration)}"
    )


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    try:
        main(*sys.argv[1:])
    except SystemExit:
        raise
    except Exception as error:  # every refusal of the libraries is a failed verification
        raise SystemExit(f"{type(error).__name__}: {error}")
