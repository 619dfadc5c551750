"""Where a webhook may be sent (issue 33, finding 2): a URL of its form, to a public address.

A subscription's URL is checked when it is registered (``check_url``: http or https, a host,
a port 1-65535, no userinfo, no control characters or spaces) and its host resolved: every
address it resolves to must be public (``AddressPolicy.allows``). Not public: loopback in any
spelling (``127.1``, ``0x7f.1``, ``2130706433`` and ``localhost`` all resolve to 127.0.0.1),
link-local and cloud metadata (169.254.169.254, fe80::/10), private ranges, unique local
(fc00::/7), unspecified, multicast, reserved and shared (100.64.0.0/10) addresses, and IPv6
spellings of any of these (``::ffff:127.0.0.1``). Only the operator's allowlist
(``MTG_LEDGER_WEBHOOK_ALLOW_PRIVATE``, CIDR ranges) lets an internal receiver in.

The host is resolved again when a delivery is sent and the connection made to the address
checked then (``ledger.webhook_delivery``): a name that resolved to a public address at
registration can't be pointed at an internal one later (DNS rebinding).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from domain.errors import Code, InvalidCommand

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
MAX_URL = 2048
"""Characters a webhook URL may have."""


@dataclass(frozen=True, slots=True)
class Target:
    """A checked URL: its scheme, host (as written, for ``Host`` and TLS), port and path."""

    scheme: str
    host: str
    port: int
    path: str


def check_url(url: str) -> Target:
    """``url``'s parts, or ``InvalidCommand`` (``invalid_webhook_url``) saying what is wrong."""

    def refuse(why: str) -> InvalidCommand:
        return InvalidCommand(f"webhook url {why}", Code.INVALID_WEBHOOK_URL)

    if len(url) > MAX_URL:
        raise refuse(f"is longer than {MAX_URL} characters")
    if any(ord(ch) < 0x21 or ord(ch) == 0x7F for ch in url):
        raise refuse("has a control character or a space")
    try:
        parts: SplitResult = urlsplit(url)
        port = parts.port
    except ValueError:
        raise refuse("has no valid port (1-65535)") from None
    if parts.scheme not in ("http", "https"):
        raise refuse("must be http:// or https://")
    if "@" in parts.netloc:
        raise refuse("must not carry a user name or password")
    host = parts.hostname
    if not host:
        raise refuse("has no host")
    if port is None:
        port = 443 if parts.scheme == "https" else 80
    if not 1 <= port <= 65535:
        raise refuse("has no valid port (1-65535)")
    if parts.fragment:
        raise refuse("must not have a fragment")
    path = parts.path or "/"
    return Target(parts.scheme, host, port, f"{path}?{parts.query}" if parts.query else path)


def parse_networks(ranges: Iterable[str]) -> tuple[Network, ...]:
    """CIDR ranges (``127.0.0.0/8``, ``fd00::/8``, a bare address), or ``ValueError``."""
    return tuple(ipaddress.ip_network(text.strip(), strict=False) for text in ranges if text.strip())


def _plain(address: IPAddress) -> IPAddress:
    """The IPv4 address an IPv6 address spells (mapped ``::ffff:a.b.c.d``, 6to4, Teredo), or itself."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address.sixtofour is not None:
            return address.sixtofour
        if address.teredo is not None:
            return address.teredo[1]
    return address


@dataclass(frozen=True, slots=True)
class AddressPolicy:
    """Public addresses, plus the operator's ``allow`` ranges."""

    allow: tuple[Network, ...] = ()

    def allows(self, address: IPAddress) -> bool:
        for spelling in {address, _plain(address)}:
            if any(spelling.version == net.version and spelling in net for net in self.allow):
                return True
        plain = _plain(address)
        # ``is_global`` is False for loopback, link-local, private, ULA, unspecified, reserved
        # and shared addresses; multicast is refused on its own (224/4 counts as global).
        return plain.is_global and address.is_global and not plain.is_multicast and not address.is_multicast

    def resolve(self, host: str, port: int) -> list[IPAddress]:
        """The addresses ``host`` resolves to, every one of them allowed; else ``InvalidCommand``
        (``webhook_address_refused``), the same whatever was wrong (nothing to probe with)."""
        refused = InvalidCommand(
            f"webhook host {host!r} does not resolve to public addresses only", Code.WEBHOOK_ADDRESS_REFUSED
        )
        try:
            found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
        except (OSError, UnicodeError):
            raise refused from None
        addresses: list[IPAddress] = []
        for *_, sockaddr in found:
            address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
            if not self.allows(address):
                raise refused  # one internal address is enough to refuse the name
            if address not in addresses:
                addresses.append(address)
        if not addresses:
            raise refused
        return addresses
