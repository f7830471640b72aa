"""WIMS settings, read from the environment.

Development (WIMS_ENV=development, or DEBUG=1 as `make run` sets) runs on a SQLite file and an embedded
filesystem broker under var/, so that `make run` needs no server. Production sets WIMS_ENV=production,
SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis); see docs/operations.md. With
neither WIMS_ENV nor DEBUG set, a missing or weak SECRET_KEY or a wildcard ALLOWED_HOSTS refuses to start.
"""

import ipaddress
import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from foundation.env import env_bool, env_int, env_list, env_number

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("WIMS_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


WIMS_ENV = os.environ.get("WIMS_ENV", "development")
if WIMS_ENV not in {"development", "production"}:
    raise ImproperlyConfigured(f"WIMS_ENV must be 'development' or 'production', not {WIMS_ENV!r}")
PRODUCTION = WIMS_ENV == "production"

DEBUG = env_bool("DEBUG", False)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG must be off when WIMS_ENV=production")

# Neither WIMS_ENV nor DEBUG says where this runs: a server started without its environment file looks like
# this, so an unsafe secret key or host list is refused here as in production rather than guessed to be fine.
# `make run` sets DEBUG=1 and the test suite WIMS_ENV=development (tests/settings.py).
UNDECLARED = "WIMS_ENV" not in os.environ and not DEBUG
_DECLARE = (
    "neither WIMS_ENV nor DEBUG says this is a development machine: on a server set WIMS_ENV=production with "
    "SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and CELERY_BROKER_URL (docs/deploy/wims.env.example); on a "
    "development machine set WIMS_ENV=development (or DEBUG=1)"
)


def _secret_key() -> str:
    key = os.environ.get("SECRET_KEY")
    strict = PRODUCTION or UNDECLARED
    if key and strict and (len(key) < 50 or len(set(key)) < 5 or key.startswith("django-insecure-")):
        # Django's own test of a strong key (check W009), refused instead of warned about: sessions, password
        # reset links and signed unsubscribe links all rest on it.
        raise ImproperlyConfigured(
            "SECRET_KEY is weak: use at least 50 random characters, e.g. "
            'python -c "import secrets; print(secrets.token_urlsafe(50))"' + (f"; {_DECLARE}" if UNDECLARED else "")
        )
    if key:
        return key
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set when WIMS_ENV=production")
    if UNDECLARED:
        raise ImproperlyConfigured(f"SECRET_KEY is not set, and {_DECLARE}")
    # Development: generate once and keep it, so sessions survive restarts.
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "" if PRODUCTION else "127.0.0.1,localhost,[::1],testserver")
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when WIMS_ENV=production")
if any(host == "*" or host.startswith("*") for host in ALLOWED_HOSTS):
    if PRODUCTION:
        raise ImproperlyConfigured("ALLOWED_HOSTS must name this site's host names when WIMS_ENV=production, not '*'")
    if UNDECLARED:
        raise ImproperlyConfigured(f"ALLOWED_HOSTS must name this site's host names, not '*': {_DECLARE}")
# Production never falls back to the development defaults (a SQLite file, the embedded broker) by omission.
for _name in ("DATABASE_URL", "CELERY_BROKER_URL"):
    if PRODUCTION and not os.environ.get(_name):
        raise ImproperlyConfigured(f"{_name} must be set when WIMS_ENV=production (see docs/deploy/wims.env.example)")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# `manage.py runall` (make run): the web app's address (WIMS_WORKER_CONCURRENCY and WIMS_DEMO_PORT below).
WIMS_ADDR = os.environ.get("WIMS_ADDR", "127.0.0.1:8000")
# Public base URL of this WIMS instance; named in the crawler's User-Agent, in the links of alerts and digests
# and in feeds. Unset, the address `make run` serves on (WIMS_ADDR; a wildcard host as 127.0.0.1): the links of
# e-mails then reach the app wherever it runs (they named port 8000 whatever WIMS_ADDR said).
_served_host, _, _served_port = WIMS_ADDR.rpartition(":")
_served_host = "127.0.0.1" if _served_host in ("", "0.0.0.0", "::", "[::]") else _served_host  # noqa: S104 - read, not bound
WIMS_PUBLIC_URL = os.environ.get("WIMS_PUBLIC_URL") or f"http://{_served_host}:{_served_port}"
# Feeds (feeds/syndication.py): items per feed, and how long a rendered feed version stays cached.
WIMS_FEED_ITEMS = env_int("WIMS_FEED_ITEMS", 50, minimum=1)
WIMS_FEED_CACHE_SECONDS = env_int("WIMS_FEED_CACHE_SECONDS", 86400)
# Characters of an item's summary (the core text, cut at a word), and the tagging authority of item GUIDs
# (tag:AUTHORITY:...; empty: the host of WIMS_PUBLIC_URL with 2025). Never change the authority of a
# running instance: readers would see every item as new.
WIMS_FEED_SUMMARY_CHARS = env_int("WIMS_FEED_SUMMARY_CHARS", 600, minimum=1)
WIMS_FEED_TAG_AUTHORITY = os.environ.get("WIMS_FEED_TAG_AUTHORITY", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.syndication",
    "django_celery_beat",
    "axes",
    "csp",
    "wims.apps.WimsConfig",
    "monitor.apps.MonitorConfig",
    "filters.apps.FiltersConfig",
    "classifier.apps.ClassifierConfig",
    "processing.apps.ProcessingConfig",
    "feeds.apps.FeedsConfig",
    "search.apps.SearchConfig",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "api.apps.ApiConfig",
    "alerts.apps.AlertsConfig",
    "dashboards.apps.DashboardsConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",  # last: it turns a lockout into the lockout page
]

# Content-Security-Policy (django-csp): only WIMS's own scripts, styles and images run or load; no inline
# script or style attribute (article text is untrusted: an injection that got past escaping still runs
# nothing), no plugins, no framing, forms post only here.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}

# Login throttling (django-axes) on the workspace and admin logins: after AXES_FAILURE_LIMIT wrong passwords
# for one user name from one address, that pair is locked out for AXES_COOLOFF_MINUTES (no password is
# checked meanwhile, so a guessing burst costs no hashing); other users, and the same user from another
# address, are unaffected. A site administrator unlocks in the admin (Axes > Access attempts: delete).
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True

# The REST API (api/): JSON only, every endpoint signed in (per-view roles narrow it: foundation/api_permissions.py), a
# per-user token (django-rest-knox, stored as a digest) or the browser's session with its CSRF check; cursor
# pagination on every list. Token first, so that an anonymous request gets 401 with WWW-Authenticate.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.NewestFirst",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
# API tokens: a named model of our own (api.ApiToken) on knox's digest scheme; they last until revoked.
KNOX_TOKEN_MODEL = "api.ApiToken"  # noqa: S105 (a model name, not a secret)
REST_KNOX = {"TOKEN_TTL": None, "AUTO_REFRESH": False, "TOKEN_PREFIX": "wims_"}
# knox's own migrations create its default token table even when the model is swapped for ours: a table no model
# owns, which a test database's flush cannot truncate on PostgreSQL (its foreign key to the users). Not needed.
MIGRATION_MODULES = {"knox": None}
# The OpenAPI schema at /api/schema/ and Swagger UI at /api/docs/, its files served from here (drf-spectacular-
# sidecar), its start-up script a file of its own (the split view): the CSP above allows no CDN and no inline script.
SPECTACULAR_SETTINGS = {
    "TITLE": "WIMS API",
    "DESCRIPTION": "Articles, suggestions, folders, feeds, saved searches and sites of WIMS. Authenticate with "
    "`Authorization: Token <token>` (create one at /api/tokens/) or the browser session.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "ClassificationStateEnum": "classifier.models.Classification.State",
        "ArticleStateEnum": "monitor.models.Article.State",
        "ReviewStateEnum": "api.serializers.REVIEW_STATES",
        "ReviewStateFilterEnum": "api.serializers.FILTER_STATES",
        "ProcessingStateEnum": "api.serializers.PROCESSING_STATES",
    },
}
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

ROOT_URLCONF = "wims.urls"
WSGI_APPLICATION = "wims.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "wims.accounts.landing",
            ],
        },
    },
]

# Database: DATABASE_URL, else a SQLite file under var/.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'wims.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web app and the worker write at the same time: WAL plus a busy timeout avoids "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file (not :memory:) so that worker processes started by tests see the test database.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
else:
    # One test database per test run, so that two runs on one server never drop each other's database.
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns on every request while collectstatic has not run yet
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": os.environ["CACHE_URL"]}
        if os.environ.get("CACHE_URL")
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# Security defaults; production adds HTTPS-only cookies and HSTS (see README, "Running in production").
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # the page's JavaScript reads it to send X-CSRFToken
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# /metrics is scraped from the app server itself, on loopback or a private network (wims/metrics.py refuses what a
# proxy forwards): plain HTTP, never redirected to the proxy's HTTPS
SECURE_REDIRECT_EXEMPT = [r"^metrics$"]
if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

# Celery: CELERY_BROKER_URL, else an embedded filesystem broker under var/ that needs no server.
BROKER_DIR = Path(os.environ.get("WIMS_BROKER_DIR", VAR_DIR / "broker"))
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or "filesystem://"
if CELERY_BROKER_URL.startswith("filesystem://"):
    # kombu's filesystem transport with atomic writes and claims (wims/broker.py explains why)
    CELERY_BROKER_TRANSPORT = "wims.broker:Transport"
    for sub in ("queue", "processed", "control"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        # kombu looks for new files once a second by default: a countdown message due sooner (a fetch back
        # for the politeness slot it holds) then arrives late enough to lose it (live: 46 deferrals for 30
        # fetches, 27 for 27 at 0.2 s), and every hop of poll -> fetch -> process waits up to a second.
        # An idle worker's cost: 0.15 CPU s a minute instead of 0.05.
        "polling_interval": 0.2,
    }
    CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or f"file://{BROKER_DIR / 'results'}"
    (BROKER_DIR / "results").mkdir(parents=True, exist_ok=True)
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600, "queue_order_strategy": "priority"}
    CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or CELERY_BROKER_URL
CELERY_RESULT_EXPIRES = 3600
# Only a task whose caller waits for its answer stores a result (the health check: ignore_result=False). The
# pipeline's tasks record what they did in the database; their results filled the backend for nothing (one file
# per task in var/broker/results on the embedded broker, about 1,000 in a demo's half hour).
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
# Reliability: acknowledge after the task ran, so a killed worker's task is delivered again.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Bounds of every task, applied by every worker however it is started (wims/worker.py). Time: at its soft limit
# a task gets SoftTimeLimitExceeded and fails its row ("time limit"); TIME_LIMIT_GRACE later a prefork child
# still running it is killed (a thread cannot be: threads pools have the soft limit only). Each hard limit stays
# below its row's lease, so that the sweep never hands a task's row to another worker while it runs: an
# article's WIMS_LEASE_SECONDS (180 s; checked below), a poll's POLL_RUN_LEASE (270 s), a delivery's lease (10 min).
WIMS_TASK_TIME_LIMIT = env_int("WIMS_TASK_TIME_LIMIT", 100, minimum=1)
TIME_LIMIT_GRACE = 20
TASK_SOFT_TIME_LIMITS = {
    "monitor.dispatch_due_polls": WIMS_TASK_TIME_LIMIT,
    "monitor.fetch_article": WIMS_TASK_TIME_LIMIT,
    "processing.process_article": WIMS_TASK_TIME_LIMIT,
    "alerts.scan": WIMS_TASK_TIME_LIMIT,
    "monitor.poll_site": 200,  # several section pages and a feed, each with its own timeouts
    "alerts.send": 200,  # mail servers and webhooks
    "processing.learn_site_profile": 270,  # 20 pages learned, then up to 200 articles filtered again
    "monitor.apply_retention": WIMS_TASK_TIME_LIMIT,  # batches of 2,000 rows, each committed: the rest waits a day
}
CELERY_TASK_SOFT_TIME_LIMIT = WIMS_TASK_TIME_LIMIT  # the tasks not listed (wims.health_check, Celery's own)
CELERY_TASK_TIME_LIMIT = WIMS_TASK_TIME_LIMIT + TIME_LIMIT_GRACE
# Annotations override what a task's decorator says: these are the limits the workers apply.
CELERY_TASK_ANNOTATIONS = {
    name: {"soft_time_limit": soft, "time_limit": soft + TIME_LIMIT_GRACE}
    for name, soft in TASK_SOFT_TIME_LIMITS.items()
}
# Memory, in MB. WIMS_TASK_MEMORY_MB: the data a prefork pool child (processing) may hold; past it an allocation
# raises MemoryError in the task, which fails its row ("memory limit"), rather than the kernel's OOM killer
# taking a process of the machine. WIMS_MAX_MEMORY_PER_CHILD_MB: a child whose resident size went past it is
# replaced after its task. WIMS_WORKER_MEMORY_MB: the data of a threads-pool worker (dispatch, network) as a
# whole, all its threads' tasks together. The processing worker holds up to concurrency x WIMS_TASK_MEMORY_MB.
WIMS_TASK_MEMORY_MB = env_int("WIMS_TASK_MEMORY_MB", 1024, minimum=128)
WIMS_MAX_MEMORY_PER_CHILD_MB = env_int("WIMS_MAX_MEMORY_PER_CHILD_MB", 512, minimum=64)
WIMS_WORKER_MEMORY_MB = env_int("WIMS_WORKER_MEMORY_MB", 2048, minimum=256)
CELERY_WORKER_MAX_MEMORY_PER_CHILD = WIMS_MAX_MEMORY_PER_CHILD_MB * 1024  # KiB
# A worker keeps its database connection from one task to the next (Celery's Django fixup would close it after
# every task: a new PostgreSQL backend per task), at most WIMS_WORKER_DB_CONN_MAX_AGE seconds, checked before each
# task and replaced when broken (wims/worker.py). 0: a new connection per task, as before.
WIMS_WORKER_DB_CONN_MAX_AGE = env_int("WIMS_WORKER_DB_CONN_MAX_AGE", 300)
CELERY_DB_REUSE_MAX = 1_000_000_000 if WIMS_WORKER_DB_CONN_MAX_AGE else None  # the fixup leaves it to the worker
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Every periodic task, declared here and nowhere else. At its start the beat (the DatabaseScheduler above) writes
# each entry into its PeriodicTask table under the entry's name: the row of that name gets this task and interval,
# or is created. These names are those of the rows that `bootstrap` and alerts' migration 0002 used to create, so
# a database made by them keeps one row each (never a second dispatch or scan). In the admin a task can be
# disabled, which lasts; a changed interval or task is set back at the beat's next start.
CELERY_BEAT_SCHEDULE = {
    # polls the sites that are due, and sweeps lost work back into the queues (monitor/tasks.py)
    "Dispatch due site polls": {"task": "monitor.dispatch_due_polls", "schedule": timedelta(seconds=30)},
    # records the deliveries of new matches for alert subscriptions (alerts/tasks.py)
    "Scan alert subscriptions": {"task": "alerts.scan", "schedule": timedelta(seconds=30)},
    # drops old raw pages and fetch log rows (monitor/retention.py); by hand: manage.py retention
    "Apply the retention policy": {"task": "monitor.apply_retention", "schedule": timedelta(hours=24)},
}
# Separate queues so that a slow site cannot starve the rest (see monitor/tasks.py). The one place that
# says which queue each task goes to: tasks are also sent by name (foundation.work.enqueue,
# the task registered for each work name). On Redis a worker
# takes from its queues in the order given (queue_order_strategy "priority" above): with -Q celery,poll,fetch
# the dispatcher first, then polls (they find the work), then fetches, so a fetch backlog never delays
# polling. (The embedded filesystem broker takes them round robin.)
CELERY_TASK_DEFAULT_QUEUE = "celery"
WIMS_QUEUES = ("celery", "poll", "fetch", "process", "alerts")
CELERY_TASK_ROUTES = {
    "monitor.dispatch_due_polls": {"queue": "celery"},
    "monitor.apply_retention": {"queue": "celery"},
    "monitor.poll_site": {"queue": "poll"},
    "monitor.fetch_article": {"queue": "fetch"},
    "processing.*": {"queue": "process"},
    # the alert scan is database work beside the dispatcher; sending waits on mail servers and webhooks
    "alerts.scan": {"queue": "celery"},
    "alerts.send": {"queue": "alerts"},
}

# E-mail (alerts and digests, alerts/). EMAIL_HOST set: SMTP through it; else development writes each message
# to a file in EMAIL_FILE_PATH (var/mail/, so `make run` shows what was sent) and production uses SMTP on
# localhost. EMAIL_BACKEND names any other Django backend (e.g. django.core.mail.backends.console.EmailBackend).
EMAIL_HOST = os.environ.get("EMAIL_HOST") or "localhost"
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 30, minimum=1)
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH") or str(VAR_DIR / "mail")
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if os.environ.get("EMAIL_HOST") or PRODUCTION
    else "django.core.mail.backends.filebased.EmailBackend"
)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "WIMS <wims@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Tries of one alert or digest before it is shown as failed (transient errors back off: 1, 2, 4… minutes).
WIMS_ALERT_MAX_ATTEMPTS = env_int("WIMS_ALERT_MAX_ATTEMPTS", 5, minimum=1)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {"permission_denied": {"()": "wims.log_filters.PermissionDeniedWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # Django's own "django" handlers (a console one under DEBUG; mail to ADMINS, which WIMS does not set)
        # printed every record a second time beside the root's console: the root's alone
        "django": {"handlers": [], "propagate": True},
        # every 403 came with its full traceback, as if it were an error
        "django.request": {"filters": ["permission_denied"]},
    },
}

# WebMon's crawling tunables (seconds unless named otherwise), read by the code through monitor/conf.py, whose
# accessors say what each one means (and docs/configuration.md). Politeness: the time between two requests to a
# host, and the longest a task sleeps in its thread for its host's turn before it is queued again.
WIMS_POLITENESS_DELAY = env_number("WIMS_POLITENESS_DELAY", 2.0)
WIMS_POLITENESS_MAX_WAIT = env_number("WIMS_POLITENESS_MAX_WAIT", 0.25)
# One request: its timeouts, its body's size cap (bytes), the redirects followed.
WIMS_CONNECT_TIMEOUT = env_number("WIMS_CONNECT_TIMEOUT", 5.0, 0.1)
WIMS_READ_TIMEOUT = env_number("WIMS_READ_TIMEOUT", 20.0, 0.1)
WIMS_MAX_BYTES = int(env_number("WIMS_MAX_BYTES", 5 * 1024 * 1024, 1024))
WIMS_MAX_REDIRECTS = int(env_number("WIMS_MAX_REDIRECTS", 5))
# Retries and attempts: a fetch's backoff, a listed page that answers 404 or 410, the attempts of each stage.
WIMS_RETRY_BASE = env_number("WIMS_RETRY_BASE", 30.0)
WIMS_RETRY_MAX_DELAY = env_number("WIMS_RETRY_MAX_DELAY", 6 * 3600.0)
WIMS_MAX_FETCH_ATTEMPTS = int(env_number("WIMS_MAX_FETCH_ATTEMPTS", 6, 1))
WIMS_MISSING_PAGE_ATTEMPTS = int(env_number("WIMS_MISSING_PAGE_ATTEMPTS", 5, 1))
WIMS_MISSING_PAGE_DELAY = env_number("WIMS_MISSING_PAGE_DELAY", 15 * 60.0)
WIMS_MAX_PROCESS_ATTEMPTS = int(env_number("WIMS_MAX_PROCESS_ATTEMPTS", 3, 1))
# A site's sources (monitor/finding.py): the sitemap entries a poll takes, the time finding them may take.
WIMS_SITEMAP_MAX_AGE_DAYS = env_number("WIMS_SITEMAP_MAX_AGE_DAYS", 2.0, 0.01)
WIMS_SITEMAP_MAX_LINKS = env_int("WIMS_SITEMAP_MAX_LINKS", 200, minimum=1)
WIMS_SOURCES_FIND_SECONDS = env_number("WIMS_SOURCES_FIND_SECONDS", 20.0, 1.0)
# The sources preview's requests: a short delay between them (never longer than WIMS_POLITENESS_DELAY), a few in all.
WIMS_SOURCES_PREVIEW_DELAY = env_number("WIMS_SOURCES_PREVIEW_DELAY", 0.3)
WIMS_SOURCES_PREVIEW_PAGES = env_int("WIMS_SOURCES_PREVIEW_PAGES", 16, minimum=3)
# The claim on an article's fetch or processing, and the dispatcher's sweep of rows left untouched.
WIMS_LEASE_SECONDS = env_number("WIMS_LEASE_SECONDS", 180.0, 1.0)
WIMS_SWEEP_GRACE = env_number("WIMS_SWEEP_GRACE", 60.0)
# The sweep must never hand a row to a second worker while its task may still run (see the bounds above).
_CLAIMED_HARD_LIMIT = max(TASK_SOFT_TIME_LIMITS[t] for t in ("monitor.fetch_article", "processing.process_article"))
_CLAIMED_HARD_LIMIT += TIME_LIMIT_GRACE
if WIMS_LEASE_SECONDS <= _CLAIMED_HARD_LIMIT:
    raise ImproperlyConfigured(
        f"WIMS_LEASE_SECONDS={WIMS_LEASE_SECONDS:g} must exceed the hard time limit of an article's fetch and "
        f"processing, {_CLAIMED_HARD_LIMIT} s (WIMS_TASK_TIME_LIMIT + {TIME_LIMIT_GRACE}): raise the lease or lower "
        "the time limit"
    )
# robots.txt kept, and an unreachable one blocking its host; the extra wait before polling a failing site.
WIMS_ROBOTS_TTL = env_number("WIMS_ROBOTS_TTL", 24 * 3600.0)
WIMS_ROBOTS_ERROR_TTL = env_number("WIMS_ROBOTS_ERROR_TTL", 600.0)
WIMS_MAX_FAILURE_BACKOFF = env_number("WIMS_MAX_FAILURE_BACKOFF", 6 * 3600.0)
# Fetched pages a site needs before its filter profile is learned automatically (0: never).
WIMS_AUTO_LEARN_PAGES = int(env_number("WIMS_AUTO_LEARN_PAGES", 6))
if WIMS_AUTO_LEARN_PAGES == 1:
    raise ImproperlyConfigured("WIMS_AUTO_LEARN_PAGES=1: site learning needs 2 pages at least (0 turns it off)")

# Retention (monitor/retention.py): days a processed article's raw page and the fetch log are kept (0: forever).
WIMS_KEEP_RAW_PAGES_DAYS = int(env_number("WIMS_KEEP_RAW_PAGES_DAYS", 30))
WIMS_KEEP_FETCH_LOG_DAYS = int(env_number("WIMS_KEEP_FETCH_LOG_DAYS", 90))

# Networks WebMon may reach although they are link-local or otherwise refused even for a site allowed private
# addresses (monitor/net.py), e.g. "169.254.10.0/24"; empty: none. Cloud metadata stays refused unless named.
WIMS_ALLOWED_PRIVATE_NETWORKS = env_list("WIMS_ALLOWED_PRIVATE_NETWORKS")

# `manage.py runall` (make run): processing worker processes, the demo sites' port (WIMS_ADDR is above).
WIMS_WORKER_CONCURRENCY = env_int("WIMS_WORKER_CONCURRENCY", 2, minimum=1)
WIMS_DEMO_PORT = env_int("WIMS_DEMO_PORT", 8001, minimum=1)

# Metrics (/metrics: foundation/metrics.py, wims/metrics.py). Every WIMS process of this host counts into files in
# one folder (prometheus-client's multiprocess mode, which reads PROMETHEUS_MULTIPROC_DIR once, when imported): set
# here, before any process imports the client or forks its pool children, and handed down to the processes
# `runall` starts. A scrape is answered to the networks listed (loopback: `curl http://127.0.0.1:8000/metrics`
# under `make run`) and, when a token is set, to requests that bear it ("Authorization: Bearer <token>").
METRICS_DIR = Path(os.environ.get("PROMETHEUS_MULTIPROC_DIR") or VAR_DIR / "metrics")
METRICS_DIR.mkdir(parents=True, exist_ok=True)
os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(METRICS_DIR)
WIMS_METRICS_ALLOWED_NETWORKS = env_list("WIMS_METRICS_ALLOWED_NETWORKS", "127.0.0.0/8,::1/128")
try:
    WIMS_METRICS_NETWORKS = [ipaddress.ip_network(net, strict=False) for net in WIMS_METRICS_ALLOWED_NETWORKS]
except ValueError as _exc:
    raise ImproperlyConfigured(f"WIMS_METRICS_ALLOWED_NETWORKS: {_exc}") from None
WIMS_METRICS_TOKEN = os.environ.get("WIMS_METRICS_TOKEN", "")

# Where the benchmark and test data live (never copied into the project).
WIMS_DATASETS = Path(os.environ.get("WIMS_DATASETS", BASE_DIR.parent / "shared" / "datasets"))
