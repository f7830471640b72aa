"""Permission decorators for the experts' workspace.

Every workspace view is wrapped by one of these: anonymous visitors are sent to the login page,
signed-in users without the needed role get 403 (not a redirect loop to the login page).
The roles themselves are defined in foundation/roles.py.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.urls import resolve, reverse

from foundation.roles import is_site_administrator, request_user_is_expert


def _role_required(check, role_name: str):
    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not check(request.user):
                raise PermissionDenied(f"this page is for {role_name}")
            return view(request, *args, **kwargs)

        wrapped.required_role = role_name  # lets a test assert that every URL is protected
        wrapped.permits = check  # lets the header ask the view itself whether to show its link (may_open)
        return wrapped

    return decorator


#: Experts classify articles and grow the knowledge base.
expert_required = _role_required(request_user_is_expert, "experts")
#: Site administrators register and manage sites.
site_administrator_required = _role_required(is_site_administrator, "site administrators")


def may_open(user, url_name: str) -> bool:
    """Whether this signed-in user may open the page named ``url_name``: the check of the view's own role
    decorator, so a link is shown exactly to those its page admits. A view without one admits any signed-in user
    (Django's ``login_required`` ones, the public pages)."""
    if not user.is_authenticated:
        return False
    check = getattr(resolve(reverse(url_name)).func, "permits", None)
    return check is None or check(user)
