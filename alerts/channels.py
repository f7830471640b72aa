"""The outside world of alerts: e-mail through Django's backend, notification URLs through Apprise.

Each sender raises :class:`DeliveryError` (``transient``: worth trying again later) with a message the
subscriber can read on their subscriptions page; nothing is swallowed.

Notification URLs and private addresses (SSRF): like WebMon's sites, a URL whose host is loopback, private,
link-local or otherwise refused by ``monitor.net.address_allowed`` is refused unless a superuser allowed
private addresses on the subscription. A notification string may hold several URLs: it is split as Apprise
splits it when sending (``parse_urls``), and each URL is checked when the string is saved and before each send,
for a clear message: its scheme must be one of :data:`SCHEMES` (alerts/schemes.py: network services WIMS
supports; never one that delivers on this machine, such as ``syslog://``), no parameter may read a file on this machine
(:data:`LOCAL_PARAMETERS`), and its host (services with a fixed endpoint, Slack, Discord, Telegram…, carry
tokens where a host would be, so only URLs whose Apprise template has a ``{host}``) and every host its
parameters name (``mailto``'s ``smtp=``, any URL given as a parameter) are held to the address rule. Every
connection Apprise makes while sending is held to the same rule where the name is resolved (alerts/guard.py), so
DNS rebinding, redirects and fixed endpoints are covered too.
"""

from __future__ import annotations

import email.policy
import functools
import logging
import re
import smtplib
import socket
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import apprise
from apprise.utils.parse import parse_url, parse_urls
from django.conf import settings
from django.core.mail import EmailMultiAlternatives

from alerts import guard
from alerts.schemes import SCHEMES
from monitor.net import address_allowed

__all__ = ["SCHEMES", "DeliveryError", "Message", "check_notify_url", "send_email", "send_notification"]

#: parameters whose value is a host (or host:port) the service connects to; a parameter whose value is a URL
#: is checked too, whatever its name
HOST_PARAMETERS = frozenset({"smtp"})
#: parameters that make Apprise read a file on this machine (or fetch one itself): a template (Slack, Discord,
#: Telegram, Teams) or PGP keys (e-mail); their content would go to the service
LOCAL_PARAMETERS = frozenset({"template", "pgppub", "pgpprv"})


#: how a refused private address ends, for whoever may not allow it (check_notify_url's default remedy)
PRIVATE_REFUSED = "only a superuser may allow private addresses for a subscription."
#: ... and on a superuser's subscription form, which has the box that allows it under the URL
PRIVATE_TICK_BOX = "tick “Allow private addresses” below to allow it."


class DeliveryError(Exception):
    def __init__(self, message: str, *, transient: bool, private: bool = False):
        super().__init__(message)
        self.transient = transient
        self.private = private  # refused for a loopback, private or internal address (PRIVATE_REFUSED)


@dataclass
class Message:
    subject: str
    text: str
    html: str
    markdown: str
    unsubscribe_url: str
    headers: dict[str, str] = field(default_factory=dict)


def split_urls(text: str) -> list[str]:
    """The URLs of a notification string, split as ``Apprise.add`` splits it (spaces, commas, semicolons, lines)."""
    return parse_urls(text or "")


def _refused_addresses(host: str, port: int, allow_private: bool) -> list[str]:
    try:
        addresses = {str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)}
    except (OSError, UnicodeError):
        return []  # unresolvable now: the send will fail and say so
    return sorted(a for a in addresses if not _allowed(a, allow_private))


def _named_hosts(plugin, params: dict[str, str]) -> list[tuple[str, str, int]]:
    """(where, host, port) of each host the URL names: its own, then its parameters'."""
    hosts = []
    host = getattr(plugin, "host", None)
    if host and "host" in getattr(plugin, "template_tokens", {}):
        hosts.append(("", str(host), int(getattr(plugin, "port", None) or 0)))
    for key, value in params.items():
        name = key.lstrip("+-:")  # Apprise's prefixes for extra headers and payload fields
        if name in HOST_PARAMETERS or "://" in value:
            try:
                parts = urlsplit(value if "://" in value else f"//{value}")
                named, port = parts.hostname, parts.port or 0
            except ValueError:
                named, port = value, 0  # unreadable: Apprise will not connect to it either
            if named:
                hosts.append((f"In the {name} parameter, ", named, port))
    return hosts


def _unreadable() -> DeliveryError:
    return DeliveryError(
        "Apprise cannot read this notification URL: check its scheme and parts "
        "(see https://github.com/caronc/apprise/wiki, e.g. json://host/path or ntfys://ntfy.sh/topic).",
        transient=False,
    )


def _check_one(url: str, allow_private: bool, remedy: str = PRIVATE_REFUSED) -> str:
    """The service's name if WIMS sends to ``url`` (one URL); else DeliveryError (a private address refused: the
    message ends with ``remedy``)."""
    # scheme and parameters first: instantiating a plugin may already read the files its parameters name
    parsed = parse_url(url, verify_host=False) if "://" in url else None
    if parsed is None:
        raise _unreadable()
    scheme = str(parsed["schema"]).lower()
    if scheme not in SCHEMES:
        raise DeliveryError(
            f"{scheme}:// is not a notification service WIMS sends to (it sends over the network only, never to "
            f"this machine's logs or desktop); use one of {', '.join(f'{s}://' for s in sorted(SCHEMES))}.",
            transient=False,
        )
    params = {str(k): str(v) for k, v in (parsed.get("qsd") or {}).items()}
    local = sorted(LOCAL_PARAMETERS & set(params))  # (a prefixed key is a header or payload field, not these)
    if local:
        raise DeliveryError(
            f"The {local[0]} parameter makes Apprise read a file on this machine (or fetch one): "
            "WIMS does not allow it in notification URLs.",
            transient=False,
        )
    plugin = apprise.Apprise.instantiate(url)
    if plugin is None:
        raise _unreadable()
    for where, host, port in _named_hosts(plugin, params):
        refused = _refused_addresses(host, port, allow_private)
        if refused:
            raise DeliveryError(
                f"{where}{host} resolves to {', '.join(refused)}, a loopback, private or otherwise internal "
                f"address; {remedy}",
                transient=False,
                private=True,
            )
    return str(getattr(plugin, "service_name", "") or type(plugin).__name__)


def check_notify_url(url: str, allow_private: bool = False, *, remedy: str = PRIVATE_REFUSED) -> str:
    """The services' names if WIMS sends to every URL of ``url`` (as Apprise splits it); else DeliveryError,
    naming the URL when the string holds several. A private address refused: the message ends with ``remedy``,
    what its reader can do (:data:`PRIVATE_REFUSED` by default; :data:`PRIVATE_TICK_BOX` for a superuser's form)."""
    urls = split_urls(url)
    if not urls:
        raise DeliveryError("Give the notification URL to send to.", transient=False)
    names = []
    for position, one in enumerate(urls, 1):
        try:
            names.append(_check_one(one, allow_private, remedy))
        except DeliveryError as exc:
            if len(urls) == 1:
                raise
            shown = re.sub(r"//[^/@]*@", "//…@", one.split("?", 1)[0])  # no password or query (tokens) echoed
            raise DeliveryError(
                f"URL {position} of {len(urls)} ({shown}): {exc}", transient=False, private=exc.private
            ) from exc
    return ", ".join(names)


def _allowed(address: str, allow_private: bool) -> bool:
    return address_allowed(address.split("%", 1)[0], allow_private)


def send_notification(url: str, message: Message, allow_private: bool = False) -> None:
    check_notify_url(url, allow_private)
    notifier = apprise.Apprise()
    notifier.add(split_urls(url))  # the URLs checked, split once
    allowed = functools.partial(_allowed, allow_private=allow_private)
    with apprise.LogCapture(level=logging.WARNING) as log, guard.only_addresses(allowed):
        ok = notifier.notify(title=message.subject, body=message.markdown, body_format=apprise.NotifyFormat.MARKDOWN)
    if not ok:
        detail = " ".join(line.split(" - ", 2)[-1].strip() for line in log.getvalue().splitlines() if line.strip())
        raise DeliveryError(detail or "the notification service refused the message", transient=True)


class FoldedHeader:
    """A header value as ``email.policy.SMTP`` folds it (RFC 5322 and 2047): lines of at most 78 characters broken
    at spaces, and encoded words only for the words that are not ASCII. Django 5.2 encodes a non-ASCII Subject
    whole, in base64, cut at 76 characters without counting ``Subject: ``, and the message's compat32 policy then
    folds that again: an issue 30 trial's subjects started on an empty line, decoded with a leading space, and
    read as base64 in every raw view. The compat32 policy writes any value with this ``encode`` as it returns."""

    def __init__(self, name: str, value: str):
        self.name, self.value = name, " ".join(value.split())  # one line: no header injection, no odd spaces

    def encode(self, linesep: str = "\n", maxlinelen: int | None = None, **_) -> str:
        # refold_source "all": the default ("long") returns a value that fits one line as it is, non-ASCII
        # characters unencoded, which SMTP and the file backend refuse (a live trial's "Santé" alerts never went)
        policy = email.policy.SMTP.clone(linesep=linesep, max_line_length=maxlinelen or 78, refold_source="all")
        return policy.fold(self.name, self.value)[len(self.name) + 2 : -len(linesep)]

    def __str__(self) -> str:
        return self.value


class AlertEmail(EmailMultiAlternatives):
    """Django's message with its Subject folded by :class:`FoldedHeader`, in its place among the headers."""

    def message(self, *args, **kwargs):
        built = super().message(*args, **kwargs)
        built.replace_header("Subject", FoldedHeader("Subject", str(self.subject)))
        return built


def send_email(to: str, message: Message) -> None:
    if not to:
        raise DeliveryError("your account has no e-mail address; ask an administrator to set one", transient=False)
    email = AlertEmail(
        subject=message.subject,
        body=message.text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
        headers={
            **message.headers,
            # RFC 2369 and RFC 8058 (one-click): mail clients offer an unsubscribe button
            "List-Unsubscribe": f"<{message.unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    email.attach_alternative(message.html, "text/html")
    try:
        email.send(fail_silently=False)
    except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused) as exc:
        raise DeliveryError(f"the mail server refused the message: {exc}", transient=False) from exc
    except (smtplib.SMTPException, OSError) as exc:
        raise DeliveryError(f"could not send the e-mail: {exc or type(exc).__name__}", transient=True) from exc
