"""The field reference of docs/events.md, generated from the event classes (a test keeps the
page equal to it: ``MTG_LEDGER_WRITE_DOCS=1 make test PYTEST_ARGS=tests/domain/test_event_registry.py``
rewrites it)."""

from __future__ import annotations

from domain.events.base import event_classes

BEGIN = "<!-- field reference: generated from domain/events; do not edit by hand -->"
END = "<!-- end of the field reference -->"


def field_reference() -> str:
    """A Markdown section: one table per event type (field, type, required, meaning)."""
    out = [BEGIN, "", "## Field reference", ""]
    out.append(
        "Every field of every event type's `data`, as `domain/events` declares it. A field marked "
        "optional is left out of the stored data while it holds its default (shown)."
    )
    for cls in event_classes():
        out += ["", f"### {cls.TYPE} fields", "", (cls.__doc__ or "").strip(), ""]
        out += ["| field | type | required | meaning |", "| --- | --- | --- | --- |"]
        for spec in cls.FIELDS:
            required = "yes" if spec.required else f"no (default `{spec.default!r}`)"
            annotation = spec.annotation.replace("|", "or")
            out.append(f"| `{spec.name}` | `{annotation}` | {required} | {spec.doc.replace('|', '/')} |")
    out += ["", END]
    return "\n".join(out) + "\n"
