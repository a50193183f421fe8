# gpubound list: suites, benchmarks, axes.
. "$(dirname "$0")/lib.bash"

expect 0 "bandwidth/read" list
expect 0 "width +=.*4,8,16" list bandwidth
expect 0 "bandwidth/dtod" list bandwidth
expect 2 "list: unknown suite 'nosuch'" list nosuch
expect 2 "list: unknown option '--bogus'" list --bogus
finish
