#!/usr/bin/env bash
# setup.sh -- Gradescope runs this once, as root, when it builds the autograder
# image (the zip is unpacked in /autograder/source). It installs what mbd needs,
# builds the library, the test support and the grader, so that grading a
# submission compiles only the submission and its tests, and creates the
# unprivileged user the submission's code runs as (see run_autograder).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
    build-essential pkg-config libgsl-dev libcunit1-dev libyaml-dev libsuitesparse-dev
id -u mbd-student > /dev/null 2>&1 \
    || useradd --system --user-group --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin mbd-student
cd "$(dirname "$0")/mbd"
make grade-tools
