"""The web page's files as the server sends them: one script and one style sheet per page, built
from the hand-written ES modules in ``api/static`` when the server starts, named by their content
(``main.3f9a0c1d2e4b.js``) so a browser may keep them for a year, and gzip-compressed once.

Why a bundle built here and not a Node build step (docs/web.md, How the page is built): the page
is 43 small modules; loaded one by one a phone makes 41 script requests on its first visit
(about 325 KB uncompressed). Joining them takes a few regular expressions over a known, checked
subset of module syntax, runs in milliseconds at start-up, needs nothing but the project's own
files (``make run`` on a fresh machine), and the modules stay what is written and tested.

The subset (anything else is refused with the module's name, so a module that needs more fails
at start-up and in the tests, never in a browser):

- ``import { a, b as c } from "./x.js";`` and ``import "./x.js";`` (files of this folder);
- ``export function|async function|class|const NAME``, ``export { a, b as c };``;
- no ``export let``/``var`` (an importer would keep a stale copy: a bundle has no live bindings),
  no default or star exports, no import cycles.

Each module becomes a function run once, in the order the browser would evaluate the modules
(depth first, imports in order), returning its exports; an importer reads them into constants.
Each module keeps its own scope, so no name needs renaming.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import struct
import zlib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

STATIC: Traversable = resources.files("api").joinpath("static")

IDENT = r"[A-Za-z_$][\w$]*"
NAMED_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./([\w-]+\.js)";?[ \t]*$', re.MULTILINE)
BARE_IMPORT = re.compile(r'^import\s*"\./([\w-]+\.js)";?[ \t]*$', re.MULTILINE)
ANY_IMPORT = re.compile(r"^import\b(?!\s*\()", re.MULTILINE)
DECLARED_EXPORT = re.compile(rf"^export\s+((?:async\s+)?function\*?|class|const)\s+({IDENT})", re.MULTILINE)
LIST_EXPORT = re.compile(r"^export\s*\{([^}]*)\};?[ \t]*$", re.MULTILINE)
ANY_EXPORT = re.compile(r"^export\b", re.MULTILINE)
STYLESHEET = re.compile(r'^<link rel="stylesheet" href="/static/([\w-]+\.css)">\n', re.MULTILINE)
MODULE_SCRIPT = re.compile(r'^<script type="module" src="/static/([\w-]+\.js)"></script>\n', re.MULTILINE)
ICON_LINK = '<link rel="icon" href="data:,">\n'
HASH_CHARS = 12
VERSIONED = re.compile(rf"^[\w-]+\.[0-9a-f]{{{HASH_CHARS}}}\.(?:js|css|png)$")
"""A content-named file: ``main.3f9a0c1d2e4b.js``. Its bytes never change under that name."""


class BundleError(ValueError):
    """A module uses syntax the bundler does not take (see the module docstring)."""


@dataclass(frozen=True)
class Asset:
    """A file as sent: its bytes, their gzip form (when smaller), its type and its ETag."""

    body: bytes
    media_type: str
    gzipped: bytes | None = None
    etag: str = field(default="")

    @classmethod
    def of(cls, body: bytes, media_type: str, *, compress: bool = True) -> Asset:
        digest = hashlib.sha256(body).hexdigest()[:HASH_CHARS]
        packed = gzip.compress(body, compresslevel=9, mtime=0) if compress else None
        if packed is not None and len(packed) >= len(body):
            packed = None
        return cls(body, media_type, packed, f'"{digest}"')

    @property
    def digest(self) -> str:
        return self.etag.strip('"')


def _names(clause: str, module: str) -> list[tuple[str, str]]:
    """``a, b as c`` as [(a, a), (b, c)]: (name in the exporting module, name here)."""
    out = []
    for part in clause.split(","):
        words = part.split()
        if not words:
            continue
        if len(words) == 1 and re.fullmatch(IDENT, words[0]):
            out.append((words[0], words[0]))
        elif len(words) == 3 and words[1] == "as" and all(re.fullmatch(IDENT, w) for w in (words[0], words[2])):
            out.append((words[0], words[2]))
        else:
            raise BundleError(f"{module}: cannot bundle the import or export list {clause.strip()!r}")
    return out


@dataclass
class Module:
    """One ES module taken apart: what it imports, its exports, and its body without either."""

    name: str
    imports: list[tuple[str, list[tuple[str, str]]]]
    exports: list[tuple[str, str]]
    body: str

    @classmethod
    def parse(cls, name: str, source: str) -> Module:
        imports: list[tuple[str, list[tuple[str, str]]]] = []

        def take_named(match: re.Match[str]) -> str:
            imports.append((match[2], _names(match[1], name)))
            return ""

        def take_bare(match: re.Match[str]) -> str:
            imports.append((match[1], []))
            return ""

        body = NAMED_IMPORT.sub(take_named, source)
        body = BARE_IMPORT.sub(take_bare, body)
        if ANY_IMPORT.search(body):
            line = ANY_IMPORT.search(body)
            assert line is not None
            rest = body[line.start() : body.find("\n", line.start())]
            raise BundleError(f"{name}: cannot bundle {rest!r} (only named imports of ./files)")
        exports: list[tuple[str, str]] = []

        def take_declared(match: re.Match[str]) -> str:
            exports.append((match[2], match[2]))
            return match[0][len("export") :].lstrip()

        def take_list(match: re.Match[str]) -> str:
            exports.extend((outside, local) for local, outside in _names(match[1], name))
            return ""

        body = DECLARED_EXPORT.sub(take_declared, body)
        body = LIST_EXPORT.sub(take_list, body)
        left = ANY_EXPORT.search(body)
        if left is not None:
            rest = body[left.start() : body.find("\n", left.start())]
            why = "no export let/var/default/*: a bundle has no live bindings"
            raise BundleError(f"{name}: cannot bundle {rest!r} ({why})")
        return cls(name, imports, exports, body)


def _read(name: str) -> str:
    target = STATIC.joinpath(name)
    if not re.fullmatch(r"[\w-]+\.(js|css)", name) or not target.is_file():
        raise BundleError(f"no page file {name!r}")
    return target.read_text(encoding="utf-8")


def module_order(entry: str, read: dict[str, Module]) -> list[Module]:
    """The modules ``entry`` needs, in the order a browser evaluates them (depth first, each
    module's imports in the order written, each once); an import cycle is refused."""
    order: list[Module] = []
    done: set[str] = set()
    path: list[str] = []

    def visit(name: str) -> None:
        if name in done:
            return
        if name in path:
            raise BundleError(f"import cycle: {' -> '.join([*path[path.index(name) :], name])}")
        module = read.get(name)
        if module is None:
            module = read[name] = Module.parse(name, _read(name))
        path.append(name)
        for target, _ in module.imports:
            visit(target)
        path.pop()
        done.add(name)
        order.append(module)

    visit(entry)
    return order


def bundle_script(entry: str) -> str:
    """``entry`` and every module it imports as one module script (see the module docstring)."""
    order = module_order(entry, {})
    var = {m.name: f"__m{i}" for i, m in enumerate(order)}
    exported = {m.name: {outside for outside, _ in m.exports} for m in order}
    parts = [f"// MTG Ledger: {entry} and the {len(order) - 1} modules it imports, joined by api/web_assets.py.\n"]
    for module in order:
        head = []
        for target, names in module.imports:
            missing = [n for n, _ in names if n not in exported[target]]
            if missing:
                raise BundleError(f"{module.name}: {target} does not export {missing}")
            if names:
                listed = ", ".join(n if n == local else f"{n}: {local}" for n, local in names)
                head.append(f"const {{ {listed} }} = {var[target]};\n")
        tail = ", ".join(o if o == local else f"{o}: {local}" for o, local in module.exports)
        parts.append(
            f"// ---- {module.name}\nconst {var[module.name]} = (() => {{\n{''.join(head)}"
            f"{module.body.strip()}\nreturn {{ {tail} }};\n}})();\n"
        )
    return "".join(parts)


# ---------------------------------------------------------------------------- icons


def _png(size: int) -> bytes:
    """The page's icon: a blue square with a white ring (a life counter's dial), drawn here so the
    project keeps no binary files. Opaque and with a wide margin, so it may be masked."""
    blue, white = (0x1F, 0x5F, 0xBF), (0xFF, 0xFF, 0xFF)
    centre, outer, inner = (size - 1) / 2, size * 0.30, size * 0.20
    rows = []
    for y in range(size):
        row = bytearray(b"\x00")
        for x in range(size):
            r2 = (x - centre) ** 2 + (y - centre) ** 2
            row += bytes(white if inner * inner <= r2 <= outer * outer else blue)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"".join(rows), 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


# ---------------------------------------------------------------------------- the page set


ENTRIES = {"main": "main.js", "judges": "judges.js"}
"""Each page kind and its module: ``main`` serves every page but ``/judges``."""
EXTRA_STYLES = ["judges-panel.css", "judges.css"]
"""Style sheets joined after those ``index.html`` names: the judge panel's and the judges' page's
(their selectors are their own; the floor view uses the latter). One style sheet for every page."""
ICON_SIZES = (192, 512)


@dataclass(frozen=True)
class PageSet:
    """Everything the pages are served from, built once per process."""

    shells: dict[str, Asset]
    """Page kind -> its HTML (``index.html`` naming the bundles)."""
    versioned: dict[str, Asset]
    """Content name -> file: bundles and icons (cached for a year)."""
    icons: dict[int, str]
    """Icon size -> its content name."""
    version: str
    """One hash of every versioned file: the service worker's cache name."""

    def service_worker(self) -> Asset:
        return _service_worker(self)


def _service_worker(pages: PageSet) -> Asset:
    precache = sorted(f"/static/{name}" for name in pages.versioned)
    config = {"version": pages.version, "precache": precache, "shells": {"main": "/", "judges": "/judges"}}
    source = f"const CONFIG = {json.dumps(config, sort_keys=True)};\n" + _read("sw.js")
    return Asset.of(source.encode(), "text/javascript; charset=utf-8")


def manifest(start: str) -> Asset:
    """The web app manifest; ``start``: the page a phone's home-screen icon opens."""
    pages = page_set()
    body = {
        "id": "/",
        "name": "MTG Ledger",
        "short_name": "MTG Ledger",
        "description": "Report a Magic game from the table, online or not.",
        "start_url": start,
        "scope": "/",
        "display": "standalone",
        "background_color": "#f6f7f9",
        "theme_color": "#1f5fbf",
        "icons": [
            {"src": f"/static/{pages.icons[s]}", "sizes": f"{s}x{s}", "type": "image/png", "purpose": "any maskable"}
            for s in ICON_SIZES
        ],
    }
    return Asset.of(json.dumps(body, indent=1).encode(), "application/manifest+json")


def _shell(html: str, styles: list[str], script: str, icon: str) -> str:
    """``index.html`` loading ``styles`` and ``script`` in place of its own files, with the icon
    and the manifest."""
    first = STYLESHEET.search(html)
    if first is None or not MODULE_SCRIPT.search(html) or ICON_LINK not in html:
        raise BundleError("index.html no longer names its style sheets, module and icon as api/web_assets.py expects")
    head = "".join(f'<link rel="stylesheet" href="/static/{s}">\n' for s in styles)
    html = html[: first.start()] + head + STYLESHEET.sub("", html[first.start() :])
    html = MODULE_SCRIPT.sub(f'<script type="module" src="/static/{script}"></script>\n', html)
    links = (
        f'<link rel="icon" href="/static/{icon}">\n<link rel="apple-touch-icon" href="/static/{icon}">\n'
        '<link rel="manifest" href="/manifest.webmanifest">\n<meta name="theme-color" content="#1f5fbf">\n'
    )
    return html.replace(ICON_LINK, links)


def _named(stem: str, asset: Asset, ext: str) -> str:
    return f"{stem}.{asset.digest}.{ext}"


@cache
def page_set() -> PageSet:
    """Build the bundles, icons and pages (once per process; a few tens of milliseconds)."""
    html = _read_html()
    versioned: dict[str, Asset] = {}
    icons: dict[int, str] = {}
    for size in ICON_SIZES:
        icon = Asset.of(_png(size), "image/png", compress=False)
        icons[size] = _named(f"icon-{size}", icon, "png")
        versioned[icons[size]] = icon
    styles = [*STYLESHEET.findall(html), *EXTRA_STYLES]
    css = Asset.of("".join(_read(s) for s in styles).encode(), "text/css; charset=utf-8")
    css_name = _named("page", css, "css")
    versioned[css_name] = css
    shells: dict[str, Asset] = {}
    for kind, entry in ENTRIES.items():
        js = Asset.of(bundle_script(entry).encode(), "text/javascript; charset=utf-8")
        js_name = _named(kind, js, "js")
        versioned[js_name] = js
        shells[kind] = Asset.of(_shell(html, [css_name], js_name, icons[192]).encode(), "text/html; charset=utf-8")
    # Any change to a file of the page makes a new version (the plain files a page asks for by
    # name, such as judges-panel.css, included): the service worker then keeps the new files.
    every = hashlib.sha256("".join(sorted(versioned)).encode())
    for item in sorted(STATIC.iterdir(), key=lambda t: t.name):
        if item.is_file():
            every.update(item.name.encode() + b"\0" + item.read_bytes())
    version = every.hexdigest()[:HASH_CHARS]
    return PageSet(shells, versioned, icons, version)


def _read_html() -> str:
    return STATIC.joinpath("index.html").read_text(encoding="utf-8")


@cache
def service_worker() -> Asset:
    return page_set().service_worker()
