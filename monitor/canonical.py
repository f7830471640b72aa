"""URL canonicalisation: one spelling per article, so that a URL is fetched once however it is linked.

Pure (no Django). Rules: resolve against the page's base URL; only http and https; lower-case scheme and
host (IDN hosts to punycode); drop the default port, the fragment and user info; resolve ``.`` and ``..``
path segments; an empty path becomes ``/``; drop tracking parameters (``utm_*``, ``fbclid``, ...); sort
the remaining query parameters (stable, so repeated keys keep their order) so that their order does not
matter. Percent-escapes are upper-cased; characters that need no escape are not re-escaped.
"""

from __future__ import annotations

import posixpath
from functools import lru_cache
from urllib.parse import parse_qsl, quote, unquote, urlencode, urljoin, urlsplit, urlunsplit

import tldextract

__all__ = ["canonicalise", "host_of", "same_site", "sibling_host", "registrable_domain", "origin_of", "TRACKING_PARAMS"]

#: Query parameters that only track the reader; they never select different content.
TRACKING_PARAMS = frozenset(
    {
        "fbclid",
        "gclid",
        "gclsrc",
        "dclid",
        "msclkid",
        "yclid",
        "igshid",
        "mc_cid",
        "mc_eid",
        "_ga",
        "_gl",
        "_hsenc",
        "_hsmi",
        "mkt_tok",
        "oly_anon_id",
        "oly_enc_id",
        "vero_id",
        "wt.mc_id",
        "cmpid",
        "ito",
        "ns_mchannel",
        "ns_source",
        "ns_campaign",
        "ns_linkname",
        "ns_fee",
        "at_medium",
        "at_campaign",
        "ref_src",
        "share",
        "spm",
        "hpt",  # CNN's home-page tracking (hpt=hp_t1): the same story from every slot of the home page
        # referral and click ids (courlan's tracker list has them too): "?ref=home" on a home page registered it
        # a second time beside the site it was (a live trial), and the copy took the real site's articles
        "ref",
        "referrer",
        "referer",
        "gbraid",
        "wbraid",
        "twclid",
        "ttclid",
        "li_fat_id",
        "xtor",
        "_openstat",
    }
)
_TRACKING_PREFIXES = ("utm_", "pk_", "mtm_")
_DEFAULT_PORTS = {"http": 80, "https": 443}

# Characters left as they are in a path (RFC 3986 pchar + "/"); everything else is percent-encoded.
_PATH_SAFE = "/:@!$&'()*+,;=-._~"


def _is_tracking(key: str) -> bool:
    key = key.lower()
    return key in TRACKING_PARAMS or key.startswith(_TRACKING_PREFIXES)


def _host(hostname: str) -> str:
    hostname = hostname.rstrip(".").lower()
    try:
        return hostname.encode("idna").decode("ascii")
    except UnicodeError:
        return hostname


def _normalise_path(path: str) -> str:
    if not path:
        return "/"
    trailing = path.endswith("/") or path.endswith("/.") or path.endswith("/..")
    normal = posixpath.normpath(path)
    if normal.startswith("//"):  # normpath keeps a leading "//"; a path never needs it
        normal = "/" + normal.lstrip("/")
    if normal == ".":
        normal = "/"
    if trailing and not normal.endswith("/"):
        normal += "/"
    # Re-escape consistently: decode what is escaped, escape what needs it (keeping %2F as data).
    parts = [quote(unquote(p), safe=_PATH_SAFE.replace("/", "")) for p in normal.split("/")]
    return "/".join(parts)


def canonicalise(url: str, base: str | None = None) -> str | None:
    """The canonical form of ``url`` (resolved against ``base``), or None when it is not an http(s) URL."""
    if not isinstance(url, str):
        raise TypeError(f"url must be a string, not {type(url).__name__}")
    url = url.strip()
    if not url:
        return None
    if base:
        url = urljoin(base, url)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:  # bad port or bracketed host
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    host = _host(parts.hostname)
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _is_tracking(k)]
    query.sort(key=lambda kv: kv[0])
    return urlunsplit((scheme, netloc, _normalise_path(parts.path), urlencode(query), ""))


def host_of(url: str) -> str:
    """The lower-case host name of a URL ('' when there is none)."""
    try:
        return _host(urlsplit(url).hostname or "")
    except ValueError:
        return ""


def origin_of(url: str) -> str:
    """scheme://host[:port] of a URL (the unit robots.txt applies to)."""
    canonical = canonicalise(url)
    if canonical is None:
        raise ValueError(f"not an http(s) URL: {url!r}")
    parts = urlsplit(canonical)
    return f"{parts.scheme}://{parts.netloc}"


def _bare(host: str) -> str:
    return host[4:] if host.startswith("www.") else host


def same_site(url: str, home_url: str) -> bool:
    """True when ``url`` is on the site's host (a leading "www." does not matter)."""
    host = host_of(url)
    return bool(host) and _bare(host) == _bare(host_of(home_url))


#: the public suffix list as tldextract ships it (its bundled snapshot): no fetch of the list at run time
#: (suffix_list_urls=()), no cache written (cache_dir=None); private suffixes (blogspot.com, github.io) count,
#: so two blogs on one hosting domain are two sites
_SUFFIXES = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True)


@lru_cache(maxsize=4096)
def registrable_domain(host: str) -> str:
    """The host's registrable domain (``yahoo.com`` for ``uk.news.yahoo.com``, ``bbc.co.uk`` for
    ``news.bbc.co.uk``) by the public suffix list; '' for an IP address or a bare suffix."""
    parts = _SUFFIXES.extract_str(host)
    return parts.top_domain_under_public_suffix if parts.suffix and parts.domain else ""


def sibling_host(url: str, home_url: str) -> bool:
    """True when ``url``'s host and the home page's share a registrable domain (``uk.news.yahoo.com`` and
    ``uk.yahoo.com``): the hosts a site spans when its administrator says so (Site.sibling_hosts)."""
    host, home = host_of(url), host_of(home_url)
    if not host or not home:
        return False
    domain = registrable_domain(home)
    return bool(domain) and registrable_domain(host) == domain
