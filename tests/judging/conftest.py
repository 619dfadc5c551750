"""The judging suite runs over HTTP on both stores (the API suite's fixtures)."""

from tests.api.conftest import settings  # noqa: F401  (both stores)
