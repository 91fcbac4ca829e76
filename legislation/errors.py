"""Typed domain errors. Each names the field or the text it is about."""

from __future__ import annotations


class VigueurError(Exception):
    """Base of every domain error."""

    field: str | None = None


class InvalidFacts(VigueurError):
    """A fact of the purchase cannot be used as given; ``field`` is its request path."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


class InvalidDates(InvalidFacts):
    """The purchase's dates contradict each other or one is missing."""


class MissingFact(VigueurError):
    """A calculator needs a fact the request does not give."""

    field: str

    def __init__(self, field: str, paragraph: str) -> None:
        super().__init__(f"the text ({paragraph}) needs {field}, which the request does not give")
        self.field = field
        self.paragraph = paragraph


class UnknownVersion(VigueurError):
    """A version id that is not in the catalogue."""

    def __init__(self, version_id: str) -> None:
        super().__init__(f"no version with id {version_id!r}")
        self.version_id = version_id


class CatalogueError(VigueurError):
    """The ``versions/`` tree breaks a rule; the message names the file and the field."""

    def __init__(self, path: str, field: str, message: str) -> None:
        super().__init__(f"{path}: {field}: {message}")
        self.path = path
        self.field = field
