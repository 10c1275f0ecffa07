#!/bin/sh
# Installs what building, testing and packaging Lookahead needs on Debian 12, if it is missing
# (postgresql-15 and strace: the trace-import and recording tests trace a real server; libpq-dev:
# `lookahead record` connects to servers; time: the memory tests measure a run's peak through GNU time;
# librsvg2-bin, libxml2-utils and poppler-utils: the export tests read the SVG and PDF files back with
# rsvg-convert, xmllint and pdfinfo).
set -e
pkgs="cmake make g++ pkg-config qt6-base-dev qt6-svg-dev libqcustomplot-dev liburing-dev xvfb xauth dpkg-dev file appstream desktop-file-utils help2man lintian postgresql-15 strace time librsvg2-bin libxml2-utils poppler-utils libsqlite3-dev sqlite3 libpq-dev"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $missing
