# PgBouncer from Debian's packages, for k8s/pgbouncer.yaml:
#   docker build -f docker/pgbouncer.Dockerfile -t registry.example.internal/platform/pgbouncer:1.18.0 docker
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends pgbouncer \
 && rm -rf /var/lib/apt/lists/*
# The configuration is mounted (k8s/pgbouncer.yaml); logs go to stderr, no pid or socket file.
USER 1000:1000
EXPOSE 6432
ENTRYPOINT ["/usr/sbin/pgbouncer"]
CMD ["/etc/pgbouncer/pgbouncer.ini"]
