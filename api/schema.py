"""How the OpenAPI schema describes WIMS's token authentication (drf-spectacular extension)."""

from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme


class ApiTokenScheme(KnoxTokenScheme):
    target_class = "api.authentication.TokenAuthentication"
    name = "tokenAuth"
