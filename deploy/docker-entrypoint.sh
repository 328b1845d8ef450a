#!/usr/bin/env bash
# Entrypoint of deploy/Dockerfile: `web` (default), `worker`, `beat`, `migrate`,
# `manage <command…>`, or any command.
#   BRAG_MIGRATE=true       run `manage.py migrate` before starting (one container only)
#   BRAG_COLLECTSTATIC=true copy the static files into STATIC_ROOT (a volume nginx shares)
#   CELERY_CONCURRENCY      worker processes (default 2)
set -euo pipefail

cd /app

if [ "${BRAG_MIGRATE:-false}" = "true" ]; then
    python manage.py migrate --noinput
fi
if [ "${BRAG_COLLECTSTATIC:-false}" = "true" ]; then
    python manage.py collectstatic --noinput --verbosity 0
fi

command="${1:-web}"
[ "$#" -gt 0 ] && shift
case "$command" in
    web)
        exec gunicorn -c /app/deploy/gunicorn.conf.py brag_event.wsgi:application "$@"
        ;;
    worker)
        exec celery -A brag_event.celery worker --loglevel=INFO \
            --concurrency="${CELERY_CONCURRENCY:-2}" -O fair \
            --hostname="worker@%h" --without-mingle --without-gossip "$@"
        ;;
    beat)
        # The schedule's state in /tmp: beat recomputes it at start; run exactly one beat.
        exec celery -A brag_event.celery beat --loglevel=INFO \
            --schedule=/tmp/celerybeat-schedule "$@"
        ;;
    migrate)
        exec python manage.py migrate --noinput "$@"
        ;;
    manage)
        exec python manage.py "$@"
        ;;
    *)
        exec "$command" "$@"
        ;;
esac
