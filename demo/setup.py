"""The demo account, demo sites (the three registered ones) and starting folders, for ``manage.py bootstrap --demo``
(``make run``).

Part of the demo package, which ``pip install .`` does not install: production never creates a demo login.
Idempotent: it only creates what is missing and never changes a password or a site an administrator edited.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from classifier import services
from classifier.models import Folder
from monitor.models import Site

from .articles import TOPICS
from .registration import demo_site_settings
from .sites import DEMO_SITES, LEFT_TO_REGISTER

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-wims"  # noqa: S105 - a local development login; the demo package is not installed in production
#: so that a subscription's e-mails reach var/mail/ at once (make run's file backend); the expert can change it
DEMO_EMAIL = "demo@example.org"


def ensure_demo_user(groups):
    """The demo login, an expert and site administrator (superuser, so the admin shows everything)."""
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True, "email": DEMO_EMAIL}
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
    elif not user.email:  # a demo login made before alerts existed
        user.email = DEMO_EMAIL
        user.save(update_fields=["email"])
    user.groups.add(*groups)
    return user


def ensure_demo_folders(user) -> None:
    """A starting folder per demo topic, so that a new expert has somewhere to file articles.

    Only on a knowledge base without folders: once experts have shaped the tree, it is theirs.
    """
    if Folder.objects.exists():
        return
    for topic in TOPICS:
        services.create_folder(f"Health/{topic.replace('-', ' ').capitalize()}", user)


def ensure_demo_sites(port: int) -> list[Site]:
    sites = []
    for spec in DEMO_SITES:
        site = Site.objects.filter(home_url=spec.home_url(port)).first()
        if site is None:
            site = Site(name=spec.name, home_url=spec.home_url(port))
            for field, value in demo_site_settings(spec, spec.base_url(port)).items():
                setattr(site, field, value)
            site.save()
        sites.append(site)
    return sites


def left_to_register(port: int) -> str:
    """The demo site ``make run`` serves but does not register, as the bootstrap names it: for the newcomer to
    register by its home page alone."""
    return f"{LEFT_TO_REGISTER.name} <{LEFT_TO_REGISTER.home_url(port)}>"
