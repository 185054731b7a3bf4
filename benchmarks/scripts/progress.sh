# Sourced by the benchmark scripts that run for minutes, for a line per round that says how far
# the run has got. progress_left BEGAN DONE TOTAL prints how long the run has taken since BEGAN
# (seconds since the epoch, from date +%s) and, once DONE of TOTAL equal steps are done (and
# some are left), about how long the rest will take at the pace so far: "2 min 05 s in, about
# 6 min 15 s left".
progress_left() {
    local began=$1 done=$2 total=$3 elapsed
    elapsed=$(( $(date +%s) - began ))
    if (( done == 0 || done >= total )); then
        printf '%s in' "$(progress_duration "$elapsed")"
    else
        printf '%s in, about %s left' "$(progress_duration "$elapsed")" \
            "$(progress_duration $(( elapsed * (total - done) / done )))"
    fi
}

# progress_duration SECONDS prints "42 s" or "3 min 07 s".
progress_duration() {
    if (( $1 >= 60 )); then
        printf '%d min %02d s' $(( $1 / 60 )) $(( $1 % 60 ))
    else
        printf '%d s' "$1"
    fi
}
