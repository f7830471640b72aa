"""The notification services WIMS sends to, by Apprise scheme: the one list that alerts.channels checks URLs
against and that the subscription's help text shows (no Apprise import here: the models read it).

A change here changes the model's help text: ``makemigrations`` then records it (a migration of help text only).
"""

#: The Apprise services WIMS sends to, by kind: network services reached at a host or service the subscriber names.
#: Whatever else Apprise knows is refused, first of all what delivers on this machine (syslog://, the desktop's
#: dbus:// or windows://): each scheme here had its parameters reviewed for hosts and files (alerts/channels.py).
#: Microsoft Teams is workflow(s)://: Apprise 2 dropped msteams://, whose Office 365 connectors Microsoft retired.
SERVICES: dict[str, tuple[str, ...]] = {
    "webhooks": ("json", "jsons", "xml", "xmls", "form", "forms"),
    "push services": ("ntfy", "ntfys", "gotify", "gotifys", "pover"),
    "Slack, Discord, Telegram, Microsoft Teams": ("slack", "discord", "tgram", "workflow", "workflows"),
    "Matrix, Mattermost, Rocket.Chat": ("matrix", "matrixs", "mmost", "mmosts", "rocket", "rockets"),
    "e-mail through an SMTP server": ("mailto", "mailtos"),
}
SCHEMES = frozenset(scheme for schemes in SERVICES.values() for scheme in schemes)


def services_text() -> str:
    """The accepted schemes by kind, as help texts show them: "webhooks (json://, jsons://, …); push services …"."""
    return "; ".join(f"{kind} ({', '.join(f'{s}://' for s in schemes)})" for kind, schemes in SERVICES.items())
