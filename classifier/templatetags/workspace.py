"""Small display helpers for the workspace templates (plain text out: templates escape it)."""

from django import template

from classifier.features import describe
from classifier.models import Correction
from wims.roles import is_expert

register = template.Library()


@register.filter
def condition(feature: str) -> str:
    """A condition as an expert reads it: ``title:measles`` -> ``title has "measles"`` (classifier.features)."""
    return describe(feature)


@register.filter
def rule_text(rule) -> str:
    """A rule as an expert reads it: "goal & "prime minister" & not site is bbc.co.uk → Politics"."""
    words = [describe(w) for w in rule.conditions] + [f"not {describe(w)}" for w in rule.absent]
    target = rule.folder.path if rule.folder_id else "STOP (withhold the folder)"
    return f"{' & '.join(words)} → {target}"


@register.simple_tag
def pending_corrections_count(user) -> int | None:
    """How many rejections wait for their rule (everyone's), for the header's link; None for a non-expert."""
    if not user.is_authenticated or not is_expert(user):
        return None
    return Correction.objects.filter(state=Correction.State.PENDING).count()


@register.filter
def review_state_label(state: str) -> str:
    """A review state as the lists' badges name it ("suggested", "rejected, rule pending", ...)."""
    return {"pending": "suggested", "correction": "rejected, rule pending"}.get(state, state)


@register.filter
def rule_kind(rule) -> str:
    return rule.kind.label


@register.filter
def ratio(value) -> str:
    """A 0..1 measure as a percentage; undefined measures (no cases) show as an en dash."""
    return "–" if value is None else f"{value * 100:.1f} %"


@register.filter
def paths(folders) -> str:
    return ", ".join(f.path for f in folders) or "(none)"


@register.filter
def word_score(item) -> str:
    """Why a difference-list word ranks where it does (acquisition.RankedWord), for its tooltip."""
    parts = [f"leaves {item.excludes} changing cornerstone case{'s' if item.excludes != 1 else ''} unchanged"]
    if item.precision is not None:
        parts.append(f"precision {item.precision * 100:.0f} % among accepted articles")
    if item.prior:
        parts.append("used by an earlier rule for this folder")
    return "; ".join(parts)
