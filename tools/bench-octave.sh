#!/usr/bin/env bash
# tools/bench-octave.sh BUILD [RUNS] -- the toolkit's runs against the Octave
# times of issue 15 (make bench-octave; not part of make test).
#
# Octave is not a dependency of the project: the Octave times below are the
# issue's table, taken as the reference. The chapters' runs are timed the
# same way as those: each run as a whole process, wall-clock, the best of RUNS
# (default 10), minus the best of RUNS of the same program's `--help` (the
# process start-up). Every run is `--integrator ode23 --dt-out 1e-4 --summary`
# and must end with status = ok.
#
# The last column is what issue 15's goal of 100x leaves for each output:
# (Octave / 100) / outputs, the outputs being t_end / 1e-4 + 1 from the run's
# own t_end. Compare it with the `output` rows of `make bench`, which time an
# output's model callbacks alone (output_model_s) and the rest of it.
set -euo pipefail

build=${1:?usage: tools/bench-octave.sh BUILD [RUNS]}
runs=${2:-10}
case $runs in
    '' | *[!0-9]* | 0) echo "tools/bench-octave.sh: RUNS must be a positive whole number, not '$runs'" >&2
        exit 2 ;;
esac

# program | its options | what the issue's table calls it | Octave seconds
cases=(
    "ch03-pendulum|--method projection|pendulum, projection|0.23"
    "ch03-pendulum|--method penalty|pendulum, penalty|0.24"
    "ch04-scotch-yoke|--variant listing --method projection-baumgarte|Scotch yoke (listing), projection + Baumgarte|0.13"
    "ch04-scotch-yoke|--variant listing --method penalty-baumgarte|Scotch yoke (listing), penalty + Baumgarte|0.13"
    "ch05-slider-crank|--method projection-baumgarte|slider-crank, projection + Baumgarte|0.05"
    "ch05-slider-crank|--method penalty-baumgarte|slider-crank, penalty + Baumgarte|0.05"
)
common=(--integrator ode23 --dt-out 1e-4 --summary)

# the best wall-clock seconds of $runs runs of "$@" (stdout to a file)
best_of() {
    local best="" start end
    for ((i = 0; i < runs; i++)); do
        start=$EPOCHREALTIME
        "$@" > "$tmp/out"
        end=$EPOCHREALTIME
        best=$(awk -v s="$start" -v e="$end" -v b="$best" 'BEGIN {
            d = e - s; if (b == "" || d < b) b = d; printf "%.6f", b }')
    done
    echo "$best"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

declare -A startup
printf '%s\n' "Each run: --integrator ode23 --dt-out 1e-4 --summary; wall-clock, best of $runs,"
printf '%s\n\n' "minus the best of $runs of the same program's --help (start-up)."
{
    printf 'case\tprogram\twhole process\tstart-up\trun\tOctave\ttoolkit/Octave\tOctave/toolkit\toutputs\t100x: per output\n'
    for c in "${cases[@]}"; do
        IFS='|' read -r program options label octave <<< "$c"
        bin=$build/bin/$program
        [ -x "$bin" ] || { echo "tools/bench-octave.sh: no $bin (run make first)" >&2; exit 2; }
        if [ -z "${startup[$program]:-}" ]; then
            startup[$program]=$(best_of "$bin" --help)
        fi
        read -r -a opts <<< "$options"
        whole=$(best_of "$bin" "${opts[@]}" "${common[@]}")
        if ! grep -qx 'status = ok' "$tmp/out"; then
            echo "tools/bench-octave.sh: $program $options did not end with status = ok" >&2
            exit 1
        fi
        t_end=$(awk -F' = ' '$1 == "t_end" { print $2 }' "$tmp/out")
        if [ -z "$t_end" ]; then
            echo "tools/bench-octave.sh: $program $options printed no t_end key" >&2
            exit 1
        fi
        awk -v label="$label" -v program="$program" -v whole="$whole" -v start="${startup[$program]}" \
            -v octave="$octave" -v t_end="$t_end" 'BEGIN {
            run = whole - start
            if (run < 1e-6) run = 1e-6
            outputs = int(t_end / 1e-4 + 0.5) + 1
            printf "%s\t%s\t%.1f ms\t%.1f ms\t%.1f ms\t%.0f ms\t%.3f\t%.1fx\t%d\t%.0f ns\n", label,
                   program, 1e3 * whole, 1e3 * start, 1e3 * run, 1e3 * octave, run / octave,
                   octave / run, outputs, 1e9 * octave / 100 / outputs }'
    done
} | { column -t -s "$(printf '\t')" 2> /dev/null || tr '\t' ' '; }   # column: bsdextrautils
