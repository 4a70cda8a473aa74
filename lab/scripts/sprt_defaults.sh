# Sourced by lab/scripts/sprt.sh and lab/scripts/sprt_resume.sh: the settings of an SPRT, each
# taken from the environment or set to its default (sprt.sh's usage lists them), with `here`
# the repository's root.
TC=${TC:-8+0.08}
HASH=${HASH:-32}
CONCURRENCY=${CONCURRENCY:-2}
GAMES=${GAMES:-4000}
OPENINGS=${OPENINGS:-${BETACUT_SHARED:-$here/../shared}/data/openings/UHO_4060_v4_20k.epd}
PROTOCOL=${PROTOCOL:-xboard}
EXTRA=${EXTRA:-}
OUT=${OUT:-$here/target/sprt}
PY=${PY:-$HOME/.venv-chess-tools/bin/python}
TOOLS=${TOOLS:-${BETACUT_SHARED:-$here/../shared}/tools}
