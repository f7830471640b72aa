"""The two roles of WIMS users, as Django groups, and the checks views use.

Experts classify and grow the knowledge base; site administrators register and manage sites.
Superusers have both roles. Anonymous visitors see nothing but public feeds.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db.models import Q

EXPERTS = "experts"
SITE_ADMINISTRATORS = "site administrators"
#: experts who may also undo another expert's rule (a knowledge-base decision beyond one's own work)
KB_ADMINISTRATORS = "knowledge-base administrators"

# Model permissions each group gets in the admin (app_label, model names).
GROUP_PERMISSIONS: dict[str, dict[str, list[str] | None]] = {
    EXPERTS: {"classifier": ["folder", "rule", "classification", "case"]},
    KB_ADMINISTRATORS: {"classifier": ["folder", "rule", "classification", "case"]},
    SITE_ADMINISTRATORS: {
        "monitor": None,  # every model of the app
        "filters": None,
        "processing": ["notarticle"],
        "django_celery_beat": ["periodictask", "intervalschedule", "crontabschedule"],
    },
}


def ensure_groups() -> dict[str, Group]:
    """Create the role groups with their permissions; safe to run again."""
    groups = {}
    for name, apps in GROUP_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=name)
        perms = Permission.objects.none()
        for app_label, models in apps.items():
            query = Permission.objects.filter(content_type__app_label=app_label)
            if models is not None:
                query = query.filter(content_type__model__in=models)
            perms = perms | query
        group.permissions.set(perms)
        groups[name] = group
    return groups


def has_role(user, group_name: str) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    return user.is_superuser or user.groups.filter(name=group_name).exists()


def is_expert(user) -> bool:
    return has_role(user, EXPERTS)


def request_user_is_expert(user) -> bool:
    """``is_expert`` for a request's user, asked once per request: the view's decorator, the header's search box,
    its corrections link and the shortcuts all ask. Kept on the user object, which lives for one request; code
    that outlives a request (services, tasks) uses ``is_expert``, which sees a role given a moment ago."""
    cached = getattr(user, "_wims_is_expert", None)
    if cached is None:
        cached = is_expert(user)
        if user.is_authenticated:
            user._wims_is_expert = cached
    return cached


def experts():
    """The active users with the experts' role (superusers included), by username: whom work is assigned to."""
    users = get_user_model().objects.filter(is_active=True)
    return users.filter(Q(is_superuser=True) | Q(groups__name=EXPERTS)).distinct().order_by("username")


def is_site_administrator(user) -> bool:
    return has_role(user, SITE_ADMINISTRATORS)


def is_kb_administrator(user) -> bool:
    return has_role(user, KB_ADMINISTRATORS)
