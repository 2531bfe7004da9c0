# The agent-bench sandbox image. One Dockerfile for both build paths:
#  - registry: BASE=debian:bookworm-slim, the apt-get step installs sandbox/packages.txt;
#  - offline:  BASE=agent-bench-base:<hash> (debootstrap'd with the same list, see
#    sandbox/build-offline-base.sh), the apt-get step finds everything installed and skips itself,
#    so the build needs no network.
# The tag is a hash of this file and sandbox/, so editing either rebuilds the image.
ARG BASE=debian:bookworm-slim
FROM ${BASE}

# Imported root filesystems carry no environment; say everything explicitly.
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive

COPY sandbox/packages.txt /usr/local/share/agent-bench/packages.txt
RUN set -eu; \
    pkgs=$(grep -vE '^[[:space:]]*(#|$)' /usr/local/share/agent-bench/packages.txt | tr '\n' ' '); \
    installed=$(dpkg-query -W -f='${db:Status-Abbrev}\n' $pkgs 2>/dev/null | grep -c '^ii' || true); \
    if [ "$installed" -eq "$(echo $pkgs | wc -w)" ]; then \
      echo "agent-bench: all packages already present, apt-get skipped"; \
    else \
      apt-get update; \
      apt-get install -y --no-install-recommends $pkgs; \
      rm -rf /var/lib/apt/lists/*; \
    fi

# The agent (uid 1000) owns nothing in the image: /workspace and /tmp are tmpfs mounts created per
# container (owned by uid 1000 there). HOME is /tmp because the root filesystem is read-only and
# /tmp is wiped with every reset. /harness (root only) and /run/agent-bench (per-exec output
# files) are tmpfs mount points too. The checker (uid 1001) runs the harness's checks on the
# agent's code: its HOME is its own tmpfs (/run/checker, out of the agent's reach, so nothing the
# agent plants there runs in a check), and it reads staged copies of the workspace in /checks
# (root:checker 0750, so the agent cannot see them and the checker cannot change them). /workspace
# is 0750: the checker never reaches the live workspace, even files the agent made writable.
RUN set -eu; \
    if ! getent passwd 1000 >/dev/null; then \
      useradd --uid 1000 --user-group --home-dir /tmp --no-create-home --shell /bin/bash agent; \
    fi; \
    [ "$(id -un 1000)" = agent ]; \
    if ! getent passwd 1001 >/dev/null; then \
      useradd --uid 1001 --user-group --home-dir /run/checker --no-create-home --shell /bin/bash checker; \
    fi; \
    [ "$(id -un 1001)" = checker ]; \
    mkdir -p /workspace /harness /run/agent-bench /run/checker /checks; \
    chmod 0750 /workspace; \
    chmod 0700 /harness; \
    chmod 0700 /run/agent-bench /run/checker; \
    chmod 0750 /checks

# The commands models type, without a network: `python` is python3 (python-is-python3); pip and
# pip3 (and `python3 -m pip`) say at once that nothing can be installed; npm and npx run
# package.json scripts and binaries from node_modules/.bin or the image (sandbox/offline/npm.js).
COPY sandbox/offline/ /usr/local/lib/agent-bench/offline/
COPY sandbox/bin/ /usr/local/bin/
RUN set -eu; \
    chmod 0755 /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/pip; \
    chmod 0644 /usr/local/lib/agent-bench/offline/*; \
    ln -s pip /usr/local/bin/pip3; \
    site=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'); \
    mkdir -p "$site/pip"; \
    : >"$site/pip/__init__.py"; \
    cp /usr/local/lib/agent-bench/offline/pip.py "$site/pip/__main__.py"; \
    for cmd in python pip pip3 npm npx node tsc pytest strace; do command -v "$cmd" >/dev/null; done

# C.UTF-8 (every exec's LANG) in a locale archive: without one, each program that sets its locale
# opens, maps and closes a dozen files, about 100 system calls, all of them stops for the tracer.
RUN if [ -d /usr/lib/locale/C.utf8 ]; then localedef --add-to-archive /usr/lib/locale/C.utf8; fi

# The harness's own tools, portable into any image (sandbox/tools/bundle.sh): this image's bash,
# dash, strace, coreutils and python with their loader and libraries at /opt/agent-bench, which
# is where a Harbor task's own image gets them too (a read-only volume filled from this image).
COPY sandbox/tools/bundle.sh /usr/local/share/agent-bench/bundle.sh
RUN bash /usr/local/share/agent-bench/bundle.sh /opt/agent-bench

# Every exec runs through this wrapper (timeouts, output files, caps) and its report (header,
# trace, workspace snapshot), read-only like all of /usr. The report's modules are compiled here:
# the root filesystem is read-only at run time, and compiling them at every exec costs time.
# The relay (sandbox/relay/) starts those execs for the host inside a running container, so that a
# command costs a fork rather than an engine exec.
# A Harbor verifier's offline stand-ins (sandbox/verifier-bin/: uv and uvx run the image's own
# pytest, curl and wget fail at once saying there is no network), last on test.sh's PATH only,
# never the agent's; `uv pip install` runs the offline pip with the image's python.
COPY sandbox/exec-wrapper.sh /opt/agent-bench/exec-wrapper
COPY sandbox/report/ /opt/agent-bench/report/
COPY sandbox/relay/ /opt/agent-bench/relay/
COPY sandbox/verifier-bin/ /opt/agent-bench/verifier-bin/
COPY sandbox/offline/pip.py /opt/agent-bench/offline/pip.py
RUN set -eu; \
    chmod 0755 /opt/agent-bench/exec-wrapper /opt/agent-bench/verifier-bin/uv /opt/agent-bench/verifier-bin/curl; \
    chmod 0644 /opt/agent-bench/offline/pip.py; \
    ln -s uv /opt/agent-bench/verifier-bin/uvx; \
    ln -s curl /opt/agent-bench/verifier-bin/wget; \
    chmod 0644 /opt/agent-bench/report/*.py /opt/agent-bench/relay/*.py; \
    /opt/agent-bench/bin/python3 -I -m compileall -q /opt/agent-bench/report /opt/agent-bench/relay

# No bytecode: a stale .pyc could stand in for a changed source of the same size and mtime second.
ENV HOME=/tmp \
    PYTHONDONTWRITEBYTECODE=1
WORKDIR /workspace
CMD ["sleep", "infinity"]
