"""What a results page's hand-written findings claim, checked against the page's data at each rendering.

Standard library only, so the scripts under scripts/ use it as the explore pages do. A claim is (text,
predicate); the predicate takes the page's data (one or more arguments, as the page keeps them)."""
from __future__ import annotations

ABSENT = (KeyError, TypeError, ZeroDivisionError)  # a row or field the data lack (None), or a zero base


def check(claims, *data) -> tuple[list[str], list[tuple[str, str]]]:
    """(false, unchecked): the texts of the claims whose predicate is false on data, and (text, why) of those
    that could not be checked because their rows or fields are absent. The caller decides whether an unchecked
    claim fails the page (streams.md) or is reported and skipped (journal.md, whose quoted page may be absent)."""
    false, unchecked = [], []
    for text, holds in claims:
        try:
            if not holds(*data):
                false.append(text)
        except ABSENT as e:
            unchecked.append((text, repr(e)))
    return false, unchecked
