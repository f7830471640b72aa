"""The API's roles: the same as the workspace's and the admin's (foundation/roles.py).

Anonymous requests get 401 (DRF, from IsAuthenticated, the default); signed in without the role, 403.
"""

from rest_framework.permissions import BasePermission

from foundation.roles import is_expert, is_site_administrator


class IsExpert(BasePermission):
    """Experts classify articles and grow the knowledge base (superusers are experts too)."""

    message = "This is for experts."

    def has_permission(self, request, view) -> bool:
        return is_expert(request.user)


class IsSiteAdministrator(BasePermission):
    """Site administrators register and manage sites (superusers too)."""

    message = "This is for site administrators."

    def has_permission(self, request, view) -> bool:
        return is_site_administrator(request.user)
