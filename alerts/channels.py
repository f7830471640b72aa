"""The outside world of alerts: e-mail through Django's backend, notification URLs through Apprise.

Each sender raises :class:`DeliveryError` (``transient``: worth trying again later) with a message the
subscriber can read on their subscriptions page; nothing is swallowed.

Notification URLs and private addresses (SSRF): like WebMon's sites, a URL whose host is loopback, private,
link-local or otherwise refused by ``monitor.net.address_allowed`` is refused unless a superuser allowed
private addresses on the subscription. The URL's host is checked when the URL is saved and before each send,
for a clear message (services with a fixed endpoint, Slack, Discord, Telegram…, carry tokens where a host would
be, so only URLs whose Apprise template has a ``{host}``); and every connection Apprise makes while sending is
held to the same rule where the name is resolved (alerts/guard.py), so DNS rebinding, redirects and fixed
endpoints are covered too.
"""

from __future__ import annotations

import functools
import logging
import smtplib
import socket
from dataclasses import dataclass, field

import apprise
from django.conf import settings
from django.core.mail import EmailMultiAlternatives

from alerts import guard
from monitor.net import address_allowed

__all__ = ["DeliveryError", "Message", "check_notify_url", "send_email", "send_notification"]


class DeliveryError(Exception):
    def __init__(self, message: str, *, transient: bool):
        super().__init__(message)
        self.transient = transient


@dataclass
class Message:
    subject: str
    text: str
    html: str
    markdown: str
    unsubscribe_url: str
    headers: dict[str, str] = field(default_factory=dict)


def _plugin(url: str):
    plugin = apprise.Apprise.instantiate(url.strip())
    if plugin is None:
        raise DeliveryError(
            "Apprise cannot read this notification URL: check its scheme and parts "
            "(see https://github.com/caronc/apprise/wiki, e.g. json://host/path or ntfys://ntfy.sh/topic).",
            transient=False,
        )
    return plugin


def check_notify_url(url: str, allow_private: bool = False) -> str:
    """The service's name if Apprise reads ``url`` and its host may be reached; else DeliveryError."""
    plugin = _plugin(url)
    host = getattr(plugin, "host", None)
    if host and "host" in getattr(plugin, "template_tokens", {}):
        port = getattr(plugin, "port", None) or 0
        try:
            addresses = {info[4][0] for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)}
        except (OSError, UnicodeError):
            addresses = set()  # unresolvable now: the send will fail and say so
        refused = sorted(a for a in addresses if not address_allowed(str(a), allow_private))
        if refused:
            raise DeliveryError(
                f"{host} resolves to {', '.join(map(str, refused))}, a loopback, private or otherwise internal "
                "address; only a superuser may allow private addresses for a subscription.",
                transient=False,
            )
    return str(getattr(plugin, "service_name", "") or type(plugin).__name__)


def _allowed(address: str, allow_private: bool) -> bool:
    return address_allowed(address.split("%", 1)[0], allow_private)


def send_notification(url: str, message: Message, allow_private: bool = False) -> None:
    check_notify_url(url, allow_private)
    notifier = apprise.Apprise()
    notifier.add(url.strip())
    allowed = functools.partial(_allowed, allow_private=allow_private)
    with apprise.LogCapture(level=logging.WARNING) as log, guard.only_addresses(allowed):
        ok = notifier.notify(title=message.subject, body=message.markdown, body_format=apprise.NotifyFormat.MARKDOWN)
    if not ok:
        detail = " ".join(line.split(" - ", 2)[-1].strip() for line in log.getvalue().splitlines() if line.strip())
        raise DeliveryError(detail or "the notification service refused the message", transient=True)


def send_email(to: str, message: Message) -> None:
    if not to:
        raise DeliveryError("your account has no e-mail address; ask an administrator to set one", transient=False)
    email = EmailMultiAlternatives(
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
