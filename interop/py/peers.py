"""Real pydantic 2 peers of the Rust contracts in `tests/tests/peers.rs`.

Each model is a refund request as a Python agent would write it: an optional field, an alias,
a string enum, a tagged union and a nested list. `tests/tests/peers.rs` drives this script:

    python peers.py schema MODEL ROLE     # the model's JSON Schema for ROLE (producer|consumer)
    python peers.py write MODEL           # instances the peer builds, validates and writes
    python peers.py read MODEL            # for each JSON line on stdin: "ok" or "refused"
    python peers.py wide N                # the producer schema of an N-field model
                                          # (contract-schema/benches/shared/pydantic_shaped.rs)

A MODEL may carry a fix, `NAME?KEY=CODE`: the model NAME with its field KEY (by alias)
changed as a fix hint of `compat::check_peer` says, CODE taken from the hint as written:
`Field(...)` adds those constraints to the field, `KEY: ANNOTATION = DEFAULT` redeclares it
(evaluated with pydantic's and typing's names only).

Roles: a consumer's schema is pydantic's `mode="validation"` (what `model_validate_json`
accepts); a producer's is `mode="serialization"` with
`json_schema_serialization_defaults_required=True` (a field with a default is always written),
and the producer writes `model_dump_json(by_alias=True)` (by default pydantic writes the Python
name `order_id`, not the alias).
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model


class Reason(str, Enum):
    """Why the customer wants a refund."""

    damaged = "damaged"
    late = "late"
    other = "other"


class ReasonLost(str, Enum):
    """The reasons of a newer producer: `lost` is one the Rust consumer does not know."""

    damaged = "damaged"
    late = "late"
    other = "other"
    lost = "lost"


class Line(BaseModel):
    sku: str
    quantity: int = Field(ge=1, le=1000)


class Card(BaseModel):
    kind: Literal["card"]
    last4: str


class Voucher(BaseModel):
    kind: Literal["voucher"]
    code: str


Method = Annotated[Union[Card, Voucher], Field(discriminator="kind")]

class Refund(BaseModel):
    """The refund request both sides agree on."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    order_id: str = Field(alias="orderId")
    amount_cents: int = Field(alias="amountCents", ge=0, le=4294967295)
    reason: Reason
    note: Optional[str] = None
    lines: list[Line]
    method: Method


class RefundNoteRequired(Refund):
    """A consumer that needs `note` present (it may be null): the Rust producer omits it."""

    note: Optional[str]


class RefundLost(Refund):
    """A producer with a reason the Rust consumer does not know."""

    reason: ReasonLost


class RefundPlainInt(Refund):
    """A producer whose amount is a plain `int`: any integer, where the Rust consumer reads a
    `u32`."""

    amount_cents: int = Field(alias="amountCents")


MODELS = {
    "refund": Refund,
    "refund-note-required": RefundNoteRequired,
    "refund-lost": RefundLost,
    "refund-plain-int": RefundPlainInt,
}

# What a hint's code may name: pydantic's `Field` and the typing names a hint writes.
HINT_NAMES = {"Field": Field, "Optional": Optional, "Literal": Literal, "Any": Any,
              "str": str, "int": int, "float": float, "bool": bool, "list": list,
              "dict": dict, "None": None}


def hinted(code: str) -> Any:
    """A hint's Python code evaluated with `HINT_NAMES` only (no builtins)."""
    return eval(code, {"__builtins__": {}}, dict(HINT_NAMES))  # noqa: S307 - a test's own hint


def fixed(name: str) -> type[BaseModel]:
    """The model `NAME?KEY=CODE` names: NAME's model with KEY's field changed by CODE."""
    base_name, _, fix = name.partition("?")
    base = MODELS[base_name]
    if not fix:
        return base
    key, _, code = fix.partition("=")
    field_name, info = next(
        (n, f) for n, f in base.model_fields.items() if (f.alias or n) == key
    )
    if code.startswith("Field("):
        # The hint's constraints beside the field's own (its alias, its default).
        annotation = Annotated[info.annotation, hinted(code)]
        new = (annotation, info)
    else:
        # `KEY: ANNOTATION = DEFAULT`: redeclared, its alias kept.
        declared, _, default = code.partition("=")
        annotation = hinted(declared.split(":", 1)[1].strip())
        new = (annotation, Field(default=hinted(default.strip()), alias=info.alias))
    # A subclass keeps the base's config (`json_schema_serialization_defaults_required`).
    return create_model(base.__name__, __base__=base, **{field_name: new})


def samples(model: type[BaseModel]) -> list[BaseModel]:
    """Instances the peer builds through its own validation: every reason, both methods,
    with and without a note, empty and full lists."""
    reasons = [r.value for r in model.model_fields["reason"].annotation]
    out = []
    for i, reason in enumerate(reasons):
        method = (
            {"kind": "card", "last4": "4242"}
            if i % 2 == 0
            else {"kind": "voucher", "code": "V-1"}
        )
        lines = [{"sku": f"SKU-{n}", "quantity": n + 1} for n in range(i)]
        note = None if i % 2 == 0 else "left at the door"
        raw = {
            "orderId": f"A-{i}",
            "amountCents": 4294967295 if i == len(reasons) - 1 else 100 * i,
            "reason": reason,
            "note": note,
            "lines": lines,
            "method": method,
        }
        out.append(model.model_validate(raw))
    return out


class WideReason(str, Enum):
    damaged = "damaged"
    late = "late"
    other = "other"


class WideLine(BaseModel):
    sku: str
    quantity: int = Field(ge=0, le=4294967295)


def wide(n: int) -> type[BaseModel]:
    """The N-field model the import bench generates in Rust: fields `field_0` … cycling
    through a string, a bounded integer, an optional string, a list of lines and an enum."""
    kinds = [
        (str, ...),
        (int, Field(ge=0, le=4294967295)),
        (Optional[str], None),
        (list[WideLine], ...),
        (WideReason, ...),
    ]
    fields = {f"field_{i}": kinds[i % 5] for i in range(n)}
    model = create_model(
        "Wide",
        __config__=ConfigDict(json_schema_serialization_defaults_required=True),
        **fields,
    )
    return model


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[1] == "wide":
        schema = wide(int(argv[2])).model_json_schema(mode="serialization")
        print(json.dumps(schema, indent=2, sort_keys=True))
        return 0
    if len(argv) < 3 or argv[2].partition("?")[0] not in MODELS:
        print(__doc__, file=sys.stderr)
        return 2
    command, model = argv[1], fixed(argv[2])
    if command == "schema":
        role = argv[3] if len(argv) > 3 else ""
        if role == "consumer":
            schema = model.model_json_schema(mode="validation")
        elif role == "producer":
            schema = model.model_json_schema(mode="serialization")
        else:
            print("role: producer or consumer", file=sys.stderr)
            return 2
        print(json.dumps(schema, indent=2, sort_keys=True))
    elif command == "write":
        for instance in samples(model):
            print(instance.model_dump_json(by_alias=True))
    elif command == "read":
        for line in sys.stdin:
            line = line.strip()
            if not line:
                continue
            try:
                model.model_validate_json(line)
                print("ok")
            except ValidationError:
                print("refused")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
