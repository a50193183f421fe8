# patterns-speedup.gp - a chart of gpubound, drawn by: gnuplot patterns-speedup.gp (in this directory)
reset
$bars << EOD
"bank_conflict" 23.0791013 23.04536174 23.10734502 2.5 2.5 2.5 18.95 18.95 18.95
"global_memory load=ca" 0.9216183248 0.9157994285 0.9238710237 1.2 1.2 1.2 2.53 2.53 2.53
"global_memory load=cg" 0.9236262231 0.9198249239 0.9253562883 1.2 1.2 1.2 2.53 2.53 2.53
"replication_copy" 1.077182102 1.074681514 1.08024692 1.03 1.03 1.03 1.01 1.01 1.01
"coalescing bytes=16M" 1.232481809 1.228157636 1.235738803 1.26 1.26 1.26 4.18 4.18 4.18
"coalescing bytes=512M" 1.261355327 1.258441917 1.26524561 1.26 1.26 1.26 4.18 4.18 4.18
"scattered_copy memory=pageable" 31.07403599 30.89829179 31.32068321 17.48 17.48 17.48 63.09 63.09 63.09
"scattered_copy memory=pinned" 116.514706 115.9253424 117.0709062 17.48 17.48 17.48 63.09 63.09 63.09
"register_imbalance" 0.9866066654 0.9857762704 0.9879687187 1.01 1.01 1.01 1.01 1.01 1.01
"barrier_wait" 1.494235428 1.490438887 1.49850314 1.36 1.36 1.36 2.89 2.89 2.89
"branch_divergence" 1.929406561 1.928723746 1.930744903 1.42 1.42 1.42 1.97 1.97 1.97
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
set title 'Speedup of the revised kernel over the original, per pattern' . "\n" . 'NVIDIA H200, 2026-11-21' font ',18'
set xlabel 'pattern'
set ylabel 'speedup (original time / revised time)'
set style data histograms
set style histogram errorbars gap 1.5 lw 1.5
set style fill solid 0.85 border rgb '#303030'
set boxwidth 0.92 relative
set errorbars 1.2 lc rgb '#202020'
set xtics nomirror scale 0 rotate by 45 right
set xrange [-0.6:10.6]
set logscale y 10
set format y '%g'
set yrange [0.5723746428:210.7276311]
set grid ytics mytics back lt 1 lc rgb '#dcdcdc' lw 1, lt 1 lc rgb '#f0f0f0' lw 1
set arrow from graph 0, first 1 to graph 1, first 1 nohead front lw 2 dt (10,6) lc rgb '#404040'
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'patterns-speedup.svg'
plot $bars using 2:3:4:xtic(1) lt 1 title 'measured (95% CI)', \
     $bars using 5:6:7 lt 2 title 'paper: Fermi GTX 480', \
     $bars using 8:9:10 lt 3 title 'paper: Tesla T10', \
     keyentry with lines lw 2 dt (10,6) lc rgb '#404040' title 'no speedup (1.000)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'patterns-speedup.png'
replot
unset output
