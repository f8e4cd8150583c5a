# tools/bench-table.awk -- build/bench/results.csv as a table for the terminal
# (make bench): the columns by name, times in s, ms, us or ns, tab-separated
# for `column -t -s TAB` (the commit and the date, the same on every row,
# are left to the caller).
#
#   awk -F, -f tools/bench-table.awk build/bench/results.csv

BEGIN {
    OFS = "\t"
}

function seconds(v) {
    if (v == "")
        return "-"
    v += 0
    if (v < 0)
        return sprintf("-%s", seconds(-v))
    if (v >= 1)
        return sprintf("%.3g s", v)
    if (v >= 1e-3)
        return sprintf("%.3g ms", v * 1e3)
    if (v >= 1e-6)
        return sprintf("%.3g us", v * 1e6)
    return sprintf("%.3g ns", v * 1e9)
}

function count(v) {
    return v == "" ? "-" : v
}

NR == 1 {
    for (i = 1; i <= NF; i++)
        col[$i] = i
    print "program", "case", "method", "kind", "median", "min", "max", "steps", "fevals",
          "outputs", "per step", "per rhs", "per output", "of it the model", "own", "bare LU (n+m)",
          "overhead"
    next
}

{
    lu = $col["kkt_lu_s"] == "" ? "-" : sprintf("%s (%s)", seconds($col["kkt_lu_s"]), $col["kkt_size"])
    overhead = $col["overhead"] == "" ? "-" : sprintf("%.3g", $col["overhead"])
    print $col["program"], $col["case"], ($col["method"] == "" ? "-" : $col["method"]), $col["kind"],
          seconds($col["median_s"]), seconds($col["min_s"]), seconds($col["max_s"]),
          count($col["steps"]), count($col["fevals"]), count($col["outputs"]),
          seconds($col["per_step_s"]), seconds($col["per_rhs_s"]), seconds($col["per_output_s"]),
          seconds($col["output_model_s"]), seconds($col["output_own_s"]), lu, overhead
}

