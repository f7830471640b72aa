"""Permission decorators for the experts' workspace.

Every workspace view is wrapped by one of these: anonymous visitors are sent to the login page,
signed-in users without the needed role get 403 (not a redirect loop to the login page).
The roles themselves are defined in foundation/roles.py.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

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
        return wrapped

    return decorator


#: Experts classify articles and grow the knowledge base.
expert_required = _role_required(request_user_is_expert, "experts")
#: Site administrators register and manage sites.
site_administrator_required = _role_required(is_site_administrator, "site administrators")
