"""The API's own use cases: issuing and revoking tokens, saving a site as the admin does.

Classification decisions are not here: the API calls classifier.services.accept / reject, as the workspace does,
so that the audit log and the articles' review states stay right whichever door a decision came through.
"""

from __future__ import annotations

from api.models import ApiToken
from monitor import site_settings
from monitor.canonical import canonicalise
from monitor.models import Site


def issue_token(user, name: str) -> tuple[ApiToken, str]:
    """A new named token for ``user``: the row and the token itself, which nobody can see again after this."""
    name = (name or "").strip()
    if not name:
        raise ValueError("name the token (what it is for)")
    if ApiToken.objects.filter(user=user, name=name).exists():
        raise ValueError(f"you already have a token named {name!r}")
    return ApiToken.objects.create(user=user, name=name[:100], expiry=None)


def revoke_token(user, token_id: int) -> bool:
    """Revoke one of the user's tokens (its next request is refused); False if the user has no such token."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def canonical_url(url: str) -> str:
    """The spelling discovery compares with (monitor.canonical); unchanged when it cannot be canonicalised."""
    return canonicalise(url) or url if url else url


def save_site(site: Site, changed: set[str]) -> Site:
    """Store a new or edited site as the admin's save does (monitor.site_settings: only what changed, due at once
    when what it polls changed), its addresses in the spelling discovery compares with."""
    for name in ("home_url", "feed_url"):
        canonical = canonical_url(getattr(site, name))
        if canonical != getattr(site, name):
            setattr(site, name, canonical)
            changed = changed | {name}
    site_settings.save_settings(site, changed)
    return site


def find_sources_again(site: Site) -> Site:
    """Ask for the site's sources to be found again at its next poll, due now unless one is under way (it finds
    them then): new ones are kept as proposed (monitor.services.keep_found), those already stored keep their
    active flag."""
    Site.objects.filter(pk=site.pk).update(find_sources=True)
    site_settings.make_due(site.pk)
    site.refresh_from_db()
    return site
