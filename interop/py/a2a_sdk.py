"""The official A2A Python SDK (`a2a-sdk`, protocol 1.0) as an independent peer of the A2A
mapping of handoff contracts (contract-core's feature `a2a`). `tests/tests/a2a_peers.rs`
drives this script:

    python a2a_sdk.py write                     # the SDK's Messages and Artifacts
    python a2a_sdk.py read OBJECT [FILE ...]    # OBJECT: message or artifact

`write` builds each case with the SDK's helpers (`new_data_message`, `new_data_artifact`): one
`data` Part holding a payload of a Rust contract, the contract's extension URI in
`extensions`, `contextId` and `taskId` set on Messages. It prints one JSON line per case,
`{"case": NAME, "object": "message"|"artifact", "json": TEXT}`, where TEXT is exactly what
`json_format.MessageToJson` writes (the case `*-proto-names` with
`preserving_proto_field_name=True`, the other spelling ProtoJSON defines). The SDK holds `data`
as a protobuf `Value`, every number a double: it writes the integer 1250 as `1250.0`, and an
integer beyond 2^53 rounded.

`read` parses each document with `json_format.Parse(text, Message() or Artifact(),
ignore_unknown_fields=False)`, the SDK's strict ProtoJSON reading: each FILE is one document,
without FILE each non-empty line of stdin is one. It prints one JSON line per document:
`{"ok": true, ...what was read}` or `{"ok": false, "error": THE SDK'S MESSAGE}`.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from a2a.helpers import new_data_artifact, new_data_message
from a2a.types import Artifact, Message, Role
from google.protobuf import json_format

# The base of the contracts' extension URIs, as the Rust side configures it
# (`A2a::new(BASE)` in tests/tests/a2a_peers.rs); a contract's URI is BASE + `<name>/v<N>`.
BASE = "https://example.com/contracts/"
MEDIA_TYPE = "application/json"
CONTEXT = "ctx-peer-1"
TASK = "task-peer-1"

REFUND = {"orderId": "A-1042", "amountCents": 1250, "reason": "damaged"}


def message(data: Any, contract: str, role: Role, media_type: str | None) -> Message:
    """A Message from the SDK's helper, in CONTEXT and TASK, listing the contract's URI."""
    built = new_data_message(
        data, media_type=media_type, context_id=CONTEXT, task_id=TASK, role=role
    )
    built.extensions.append(BASE + contract)
    return built


def artifact(data: Any, contract: str, artifact_id: str) -> Artifact:
    """An Artifact from the SDK's helper, with a name and a description, listing the URI."""
    built = new_data_artifact(
        "refund result",
        data,
        media_type=MEDIA_TYPE,
        description="the refund as made",
        artifact_id=artifact_id,
    )
    built.extensions.append(BASE + contract)
    return built


def cases() -> list[tuple[str, Message | Artifact, bool]]:
    """(case, object, written with proto field names)."""
    refund = message(REFUND, "a2a-peer-refund/v2", Role.ROLE_USER, MEDIA_TYPE)
    # Another extension's data beside ours: the reader ignores it.
    refund.metadata.update({"https://example.com/ext/trace/v1": {"hop": 2}})

    quantities = message(
        {
            "orderId": "A-1042",
            "lines": [
                {"sku": "SKU-1", "quantity": 3},
                {"sku": "SKU-2", "quantity": 1000},
                {"sku": "SKU-3", "quantity": 1},
            ],
        },
        "a2a-peer-quantities/v1",
        Role.ROLE_AGENT,
        None,  # the SDK writes no mediaType unless given one
    )

    customer = message(
        {
            "customer": {
                "id": 4294967295,
                "address": {"city": "Lyon", "postcode": "69001"},
                "tier": -2,
            },
            "tags": ["vip", "eu"],
            "note": None,
        },
        "a2a-peer-customer/v1",
        Role.ROLE_AGENT,
        MEDIA_TYPE,
    )

    rate = message(
        {
            "currency": "EUR",
            "rate": 0.15,
            "spread": 2.0,
            "basisPoints": 15,
            # 2^53 - 1: the largest integer no double can have rounded.
            "ceiling": 9007199254740991,
        },
        "a2a-peer-rate/v1",
        Role.ROLE_AGENT,
        MEDIA_TYPE,
    )

    result = artifact(
        {
            "refundId": "RF-77",
            "approvedCents": 1250,
            "status": "approved",
            "refundedLines": [
                {"sku": "SKU-1", "quantity": 3, "cents": 750},
                {"sku": "SKU-9", "quantity": 1, "cents": -250},
            ],
            "ratio": 0.6,
        },
        "a2a-peer-refund-result/v1",
        "art-peer-1",
    )

    refund_proto_names = message(REFUND, "a2a-peer-refund/v2", Role.ROLE_USER, MEDIA_TYPE)
    result_proto_names = artifact(
        {
            "refundId": "RF-78",
            "approvedCents": 99,
            "status": "partial",
            "refundedLines": [],
            "ratio": 1,
        },
        "a2a-peer-refund-result/v1",
        "art-peer-2",
    )

    # 2^53 + 1: the SDK's double rounds it to 2^53.
    beyond = message(
        {"entryId": 9007199254740993, "count": 2},
        "a2a-peer-ledger/v1",
        Role.ROLE_AGENT,
        MEDIA_TYPE,
    )

    return [
        ("refund", refund, False),
        ("quantities", quantities, False),
        ("customer", customer, False),
        ("rate", rate, False),
        ("result", result, False),
        ("refund-proto-names", refund_proto_names, True),
        ("result-proto-names", result_proto_names, True),
        ("beyond-2^53", beyond, False),
    ]


def write() -> None:
    for case, built, proto_names in cases():
        text = json_format.MessageToJson(built, preserving_proto_field_name=proto_names)
        kind = "artifact" if isinstance(built, Artifact) else "message"
        print(json.dumps({"case": case, "object": kind, "json": text}))


def parts(read: Message | Artifact) -> list[dict[str, Any]]:
    out = []
    for part in read.parts:
        content = part.WhichOneof("content")
        entry: dict[str, Any] = {"content": content}
        if content == "data":
            entry["data"] = json_format.MessageToDict(part.data)
        if part.media_type:
            entry["mediaType"] = part.media_type
        out.append(entry)
    return out


def read_one(kind: str, text: str) -> dict[str, Any]:
    try:
        if kind == "message":
            m = json_format.Parse(text, Message(), ignore_unknown_fields=False)
            head = {
                "messageId": m.message_id,
                "role": Role.Name(m.role),
                "contextId": m.context_id,
                "taskId": m.task_id,
            }
        else:
            m = json_format.Parse(text, Artifact(), ignore_unknown_fields=False)
            head = {"artifactId": m.artifact_id, "name": m.name, "description": m.description}
    except json_format.ParseError as e:
        return {"ok": False, "error": str(e)}
    return {
        "ok": True,
        **head,
        "extensions": list(m.extensions),
        "metadata": json_format.MessageToDict(m.metadata),
        "parts": parts(m),
    }


def read(kind: str, files: list[str]) -> None:
    if files:
        documents = []
        for name in files:
            with open(name, encoding="utf-8") as f:
                documents.append(f.read())
    else:
        documents = [line for line in sys.stdin.read().splitlines() if line.strip()]
    for text in documents:
        print(json.dumps(read_one(kind, text)))


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[1] == "write":
        write()
        return 0
    if len(argv) >= 3 and argv[1] == "read" and argv[2] in ("message", "artifact"):
        read(argv[2], argv[3:])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
