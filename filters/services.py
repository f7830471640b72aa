"""Use cases of the filters app that touch the database (one function each)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from .learning import learn_profile
from .models import SiteProfile
from .profiles import Profile, get_profile


def learn_site_profile(
    site, pages: Sequence[tuple[str, str | bytes]], *, base: str | None = None, **settings
) -> SiteProfile:
    """Learn a site's filtering phrases, words and threshold from ``(url, html)`` pages and store them.

    ``base``: built-in profile to start from; defaults to the site's current
    base profile, else ``"default"``.  Raises ValueError when fewer than two
    pages are readable (the existing profile is then left unchanged).
    """
    existing = SiteProfile.objects.filter(site=site).first()
    base = base or (existing.base_profile if existing else "default")
    profile = learn_profile(pages, base=base, name=f"site:{site.pk}", **settings)
    with transaction.atomic():
        sp, _ = SiteProfile.objects.select_for_update().get_or_create(site=site)
        sp.set_profile(profile)
        sp.learned_at = timezone.now()
        sp.save()
    return sp


def profile_for_site(site) -> Profile:
    """The profile to extract a site's pages with: its learned one, else the built-in default.

    The one way to get a site's profile. No query when the site was loaded with
    ``select_related("filter_profile")`` (processing does), one otherwise.
    """
    try:
        stored = site.filter_profile  # the reverse one-to-one of SiteProfile.site
    except SiteProfile.DoesNotExist:
        return get_profile("default")
    return stored.to_profile()
