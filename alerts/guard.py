"""Which addresses a notification may connect to, enforced where the connection is made.

Apprise opens its own connections (requests, smtplib…), so WebMon's guarded connection classes
(monitor/net.py) cannot be handed to it. Instead ``socket.getaddrinfo`` is wrapped once per process: inside
``only_addresses(check)`` (a context variable, so it also holds in the worker threads Apprise starts with a
copy of the caller's context) every name resolution drops the addresses ``check`` refuses, and fails when
none is left. The address connected to is thus one that was checked, also when DNS answers differently
between the check at save time and the send (DNS rebinding). Everywhere else (WebMon's fetches, the
database, the broker) the wrapper passes resolutions through unchanged.

A proxy configured through HTTP(S)_PROXY is resolved under the same rule: a proxy on a private address
needs the subscription's allowance too.
"""

from __future__ import annotations

import contextlib
import contextvars
import socket
import threading
from collections.abc import Callable, Iterator

__all__ = ["AddressRefused", "only_addresses"]

_check: contextvars.ContextVar[Callable[[str], bool] | None] = contextvars.ContextVar("alerts_address_check")
_install_lock = threading.Lock()
_original_getaddrinfo = None


class AddressRefused(OSError):
    pass


def _guarded_getaddrinfo(host, port, *args, **kwargs):
    assert _original_getaddrinfo is not None  # noqa: S101 - set before this is installed
    results = _original_getaddrinfo(host, port, *args, **kwargs)
    check = _check.get(None)
    if check is None:
        return results
    allowed = [info for info in results if check(str(info[4][0]))]
    if not allowed:
        addresses = ", ".join(sorted({str(info[4][0]) for info in results}))
        raise AddressRefused(
            f"{host} resolves to {addresses}: a loopback, private or otherwise internal address that only a "
            "superuser may allow for a subscription"
        )
    return allowed


def _install() -> None:
    global _original_getaddrinfo
    with _install_lock:
        if socket.getaddrinfo is not _guarded_getaddrinfo:
            _original_getaddrinfo = socket.getaddrinfo
            socket.getaddrinfo = _guarded_getaddrinfo


@contextlib.contextmanager
def only_addresses(check: Callable[[str], bool]) -> Iterator[None]:
    """Within the block (and threads started with a copy of its context), connect only where ``check`` says."""
    _install()
    token = _check.set(check)
    try:
        yield
    finally:
        _check.reset(token)
