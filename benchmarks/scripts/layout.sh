# Sourced by the interleaved scripts. The length of a JVM's class path moves where the objects it
# allocates first land in the heap (the path is held in strings allocated before them), and so
# which of them share a cache line. Two identical jars run from paths 13 and 20 characters long
# have measured 1.10x and 0.77x the same third jar in one interleaved run: a comparison whose
# sides run from paths of different lengths can measure that instead of the code.
#
# layout_jar ROUND INDEX JAR prints the path of a link to JAR (a copy where a link cannot be made)
# under $LAYOUT_DIR. Within a round every side's path has the same length; from one round to the
# next the length changes in steps of 8 characters (8 rounds cover every offset in a cache line),
# so every side meets the same layouts.
layout_jar() {
    local round=$1 index=$2 jar=$3 pad link
    pad=$(printf '%*s' $(( (round % 8) * 8 )) '' | tr ' ' x)
    link=$(printf '%s/r%03d%s/%02d.jar' "$LAYOUT_DIR" "$round" "$pad" "$index")
    mkdir -p "$(dirname "$link")"
    ln -f "$(realpath "$jar")" "$link" 2>/dev/null || cp "$jar" "$link"
    echo "$link"
}
