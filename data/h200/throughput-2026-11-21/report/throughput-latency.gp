# throughput-latency.gp - a chart of gpubound, drawn by: gnuplot throughput-latency.gp (in this directory)
reset
$bars << EOD
"fadd" 4.121710526 4.121710526 4.121710526
"fmul" 4.121785218 4.121785218 4.121785218
"ffma" 4.121846065 4.121846065 4.121846065
"frcp" 77.54298831 77.54298831 77.54298831
"fsqrt" 60.53644414 60.53644414 60.53644414
"fdiv" 57.89561518 57.89561518 57.89561518
"rsqrtf" 43.18952338 43.18952338 43.18952338
"sinf" 105.7658924 105.7658924 105.7658924
"__sinf" 25.20693844 25.20693844 25.20693844
"expf" 49.23885173 49.23885173 49.23885173
"__expf" 47.38235294 47.38235294 47.38235294
"__fdividef" 45.42665094 45.42665094 45.42665094
"dadd" 8.067850195 8.067850195 8.067850195
"dmul" 8.067866901 8.067866901 8.067866901
"dfma" 8.084050039 8.084050039 8.084050039
"drcp" 74.67153912 74.67153912 74.67153912
"dsqrt" 99.40172414 99.40172414 99.40172414
"ddiv" 126.0677966 126.0677966 126.0677966
"iadd" 4.967576679 4.967576679 4.967576679
"imul" 4.121768236 4.121768236 4.121768236
"idiv" 140.3431677 140.3431677 140.3431677
"imod" 138.3617512 138.3617512 138.3617512
"shf" 4.121727294 4.121727294 4.121727294
"isetp" 4.327466534 4.327466534 4.327466534
EOD
set encoding utf8
set datafile missing '?'
set linetype 1 lc rgb '#0072B2' lw 2.5 pt 7 ps 1.5 dt solid
set linetype 2 lc rgb '#D55E00' lw 2.5 pt 5 ps 1.5 dt solid
set linetype 3 lc rgb '#009E73' lw 2.5 pt 9 ps 1.5 dt solid
set linetype 4 lc rgb '#CC79A7' lw 2.5 pt 13 ps 1.5 dt solid
set linetype 5 lc rgb '#E69F00' lw 2.5 pt 11 ps 1.5 dt solid
set linetype 6 lc rgb '#56B4E9' lw 2.5 pt 15 ps 1.5 dt solid
set linetype 7 lc rgb '#000000' lw 2.5 pt 7 ps 1.5 dt solid
set linetype 8 lc rgb '#999999' lw 2.5 pt 5 ps 1.5 dt solid
set linetype cycle 8
set border 3 lw 1.5 lc rgb '#404040'
set tics nomirror out scale 0.75 textcolor rgb '#202020'
set style textbox opaque noborder margins 1,1
set title 'Dependent chain: cycles per operation (one warp)' . "\n" . 'NVIDIA H200, 2026-11-21' font ',18'
set xlabel 'operation'
set ylabel 'cycles per operation'
set style data histograms
set style histogram clustered gap 1.5
set style fill solid 0.85 border rgb '#303030'
set boxwidth 0.92 relative
set errorbars 1.2 lc rgb '#202020'
set xtics nomirror scale 0 rotate by 45 right
set xrange [-0.6:23.6]
set logscale y 10
set format y '%g'
set yrange [2.576069079:252.6177019]
set grid ytics mytics back lt 1 lc rgb '#dcdcdc' lw 1, lt 1 lc rgb '#f0f0f0' lw 1
set key off
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'throughput-latency.svg'
plot $bars using 2:xtic(1) lt 1 title 'arith'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'throughput-latency.png'
replot
unset output
