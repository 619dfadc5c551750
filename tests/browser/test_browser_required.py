"""Without Chromium the browser tests skip on a developer's machine and fail under ``CI=true``
(issue 43: every test of the pages' JavaScript skipped silently without it)."""

from __future__ import annotations

import pytest

from tests.browser.support import browser_missing


@pytest.mark.parametrize("ci", ["true", "TRUE", "1"])
def test_under_ci_a_missing_browser_fails(monkeypatch: pytest.MonkeyPatch, ci: str) -> None:
    monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.fail.Exception, match="no chromium here; CI=true, so the browser tests fail"):
        browser_missing("no chromium here")


@pytest.mark.parametrize("ci", [None, "", "false", "0"])
def test_elsewhere_a_missing_browser_skips(monkeypatch: pytest.MonkeyPatch, ci: str | None) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.skip.Exception, match="no chromium here"):
        browser_missing("no chromium here")
