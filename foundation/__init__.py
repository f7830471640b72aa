"""The foundation below every app: what the apps share and nothing of any app.

Roles and their checks (``roles``), typed reads of the environment (``env``), the read-only admin base
(``admin``), the API's permission classes (``api_permissions``), the work queue (``work``: what a task does next,
``Outcome``; the stages the apps register; rows claimed with a lease, the sweep) and the reasons a task ran
into its worker's bounds (``bounds``), the metrics every app counts (``metrics``). It imports only Django, Django
REST framework, Celery (its exceptions, ``current_app``), prometheus-client and the standard library, never an
app or the project (``wims``): import-linter keeps it at the bottom (pyproject.toml).
"""
