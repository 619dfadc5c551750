"""``/docs`` and ``/redoc`` work offline (issue 30): FastAPI's pages load Swagger UI and ReDoc
from a CDN, so at a venue without internet they were blank. Their files are served by the
server itself, from the ``fastapi_offline`` package (api/app.py, ``_install_docs``)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem

# Any address with a scheme or starting with "//" names a host; the pages must name none.
EXTERNAL = re.compile(r"""(?:https?:)?//[^\s"'<>)]+""")
ASSET = re.compile(r"""(?:src|href)="([^"]+)\"""")
TYPES = {".js": "text/javascript", ".css": "text/css", ".png": "image/png"}


def _assets(html: str) -> list[str]:
    return ASSET.findall(html)


@pytest.mark.parametrize(("page", "expected"), [("/docs", 3), ("/redoc", 2)])
def test_the_docs_pages_name_no_other_host(client: TestClient, page: str, expected: int) -> None:
    response = client.get(page)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    html = response.text
    assert EXTERNAL.findall(html) == []
    assert "fonts.googleapis" not in html and "cdn." not in html
    assets = _assets(html)
    assert len(assets) == expected, assets
    for url in assets:
        assert url.startswith("/docs/assets/"), url
        assert not urlsplit(url).netloc


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_every_asset_a_docs_page_loads_is_served_with_its_type(client: TestClient, page: str) -> None:
    for url in _assets(client.get(page).text):
        response = client.get(url)
        assert response.status_code == 200, url
        path = urlsplit(url).path
        suffix = path[path.rfind(".") :]
        assert response.headers["content-type"].split(";")[0] == TYPES[suffix], url
        assert response.headers["x-content-type-options"] == "nosniff"
        assert len(response.content) > 1000, url  # the real file, not a stub
    if page == "/docs":
        bundle = client.get(next(u for u in _assets(client.get(page).text) if u.endswith(".js") or ".js?" in u))
        assert b"SwaggerUIBundle" in bundle.content


def test_swagger_ui_reads_this_servers_openapi_document_and_asks_no_validator(client: TestClient) -> None:
    html = client.get("/docs").text
    assert "url: '/openapi.json'" in html
    assert '"validatorUrl": null' in html  # else Swagger UI asks an online validator
    assert 'spec-url="/openapi.json"' in client.get("/redoc").text


@pytest.mark.parametrize("name", ["index.html", "..%2Fcore.py", "swagger-ui-bundle.js.map", "core.py"])
def test_only_the_docs_assets_are_served(client: TestClient, name: str) -> None:
    assert_problem(client.get(f"/docs/assets/{name}"), 404, "not_found")


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_docs_pages_cannot_be_framed_and_run_only_their_own_scripts(client: TestClient, page: str) -> None:
    """Issue 40, finding 5 (the pages drawn under this policy: tests/browser/test_docs_pages.py)."""
    headers = client.get(page).headers
    policy = dict(d.strip().split(" ", 1) for d in headers["content-security-policy"].split(";"))
    assert policy["frame-ancestors"] == "'none'"
    assert headers["x-frame-options"] == "DENY"
    scripts = policy["script-src"].split()
    assert scripts[0] == "'self'" and all(s.startswith("'sha256-") for s in scripts[1:]), scripts
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts
    assert policy["object-src"] == "'none'" and policy["base-uri"] == "'none'"
