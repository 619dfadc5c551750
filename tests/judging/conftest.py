"""The judging suite runs on both stores: over HTTP (the API suite's ``settings``) and on the
service (the store suite's ``store``)."""

from tests.api.conftest import settings  # noqa: F401  (both stores)
from tests.store.conftest import store  # noqa: F401  (both stores)
