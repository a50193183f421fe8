# throughput-arith.gp - a chart of gpubound, drawn by: gnuplot throughput-arith.gp (in this directory)
reset
$bars << EOD
"fadd" 124.8841237 124.8841237 124.8841237 128 128 128
"fmul" 124.8770356 124.8770356 124.8770356 128 128 128
"ffma" 124.8601691 124.8601691 124.8601691 128 128 128
"frcp" 10.1093351 10.1093351 10.1093351 ? ? ?
"fsqrt" 10.04052388 10.04052388 10.04052388 ? ? ?
"fdiv" 7.050792255 7.050792255 7.050792255 ? ? ?
"rsqrtf" 15.9611912 15.9611912 15.9611912 16 16 16
"sinf" 4.549897571 4.549897571 4.549897571 ? ? ?
"__sinf" 15.89184085 15.89184085 15.89184085 16 16 16
"expf" 12.45980499 12.45980499 12.45980499 ? ? ?
"__expf" 15.76375436 15.76375436 15.76375436 16 16 16
"__fdividef" 15.50207956 15.50207956 15.50207956 16 16 16
"dadd" 63.89772105 63.89772105 63.89772105 64 64 64
"dmul" 63.89703006 63.89703006 63.89703006 64 64 64
"dfma" 63.87186603 63.87186603 63.87186603 64 64 64
"drcp" 7.085414092 7.085414092 7.085414092 ? ? ?
"dsqrt" 4.204895736 4.204895736 4.204895736 ? ? ?
"ddiv" 4.177156924 4.177156924 4.177156924 ? ? ?
"iadd" 120.2234936 120.2234936 120.2234936 64 64 64
"imul" 63.91358748 63.91358748 63.91358748 64 64 64
"idiv" 3.890864643 3.890864643 3.890864643 ? ? ?
"imod" 4.175665707 4.175665707 4.175665707 ? ? ?
"shf" 63.37674662 63.37674662 63.37674662 64 64 64
"isetp" 60.74709374 60.74709374 60.74709374 64 64 64
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
set title 'Operations per clock per SM: measured and documented' . "\n" . 'NVIDIA H200, 2026-11-21' font ',18'
set xlabel 'operation'
set ylabel 'operations per clock per SM'
set style data histograms
set style histogram clustered gap 1.5
set style fill solid 0.85 border rgb '#303030'
set boxwidth 0.92 relative
set errorbars 1.2 lc rgb '#202020'
set xtics nomirror scale 0 rotate by 90 right
set xrange [-0.6:23.6]
set logscale y 10
set format y '%g'
set yrange [2.431790402:230.4]
set grid ytics mytics back lt 1 lc rgb '#dcdcdc' lw 1, lt 1 lc rgb '#f0f0f0' lw 1
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'throughput-arith.svg'
plot $bars using 2:xtic(1) lt 1 title 'measured', \
     $bars using 5 lt 2 title 'CUDA C++ Programming Guide'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'throughput-arith.png'
replot
unset output
