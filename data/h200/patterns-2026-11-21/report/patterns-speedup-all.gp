# patterns-speedup-all.gp - a chart of gpubound, drawn by: gnuplot patterns-speedup-all.gp (in this directory)
reset
$bars << EOD
"bank_conflict ways=1 pad=0" 4.429067661 4.426114233 4.43784587
"bank_conflict ways=1 pad=1" 4.438428062 4.433737683 4.443350064
"bank_conflict ways=2 pad=0" 4.436545356 4.43190841 4.44208741
"bank_conflict ways=2 pad=1" 4.435999737 4.429242706 4.441303511
"bank_conflict ways=4 pad=0" 4.432180574 4.425128242 4.437890337
"bank_conflict ways=4 pad=1" 4.433573566 4.429443634 4.439168306
"bank_conflict ways=8 pad=0" 6.256231842 6.249692395 6.267160013
"bank_conflict ways=8 pad=1" 4.434119193 4.430489716 4.441624728
"bank_conflict ways=16 pad=0" 11.85762698 11.8404276 11.87524191
"bank_conflict ways=16 pad=1" 4.432542352 4.427072882 4.438951854
"bank_conflict ways=32 pad=0" 23.0791013 23.04536174 23.10734502
"bank_conflict ways=32 pad=1" 4.432107152 4.426343626 4.437693514
"global_memory load=ca" 0.9216183248 0.9157994285 0.9238710237
"global_memory load=cg" 0.9236262231 0.9198249239 0.9253562883
"replication_copy" 1.077182102 1.074681514 1.08024692
"coalescing width=4 bytes=16M" 1.232481809 1.228157636 1.235738803
"coalescing width=4 bytes=512M" 1.261355327 1.258441917 1.26524561
"coalescing width=8 bytes=16M" 1.057424523 1.054280138 1.059251314
"coalescing width=8 bytes=512M" 1.02554075 1.020320392 1.02823735
"scattered_copy memory=pageable" 31.07403599 30.89829179 31.32068321
"scattered_copy memory=pinned" 116.514706 115.9253424 117.0709062
"register_imbalance" 0.9866066654 0.9857762704 0.9879687187
"barrier_wait" 1.494235428 1.490438887 1.49850314
"branch_divergence" 1.929406561 1.928723746 1.930744903
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
set title 'Speedup of the revised kernel at every measured point' . "\n" . 'NVIDIA H200, 2026-11-21' font ',18'
set xlabel 'pattern and point'
set ylabel 'speedup (original time / revised time)'
set style data histograms
set style histogram errorbars gap 1.5 lw 1.5
set style fill solid 0.85 border rgb '#303030'
set boxwidth 0.92 relative
set errorbars 1.2 lc rgb '#202020'
set xtics nomirror scale 0 rotate by 90 right
set xrange [-0.6:23.6]
set logscale y 10
set format y '%g'
set yrange [0.5723746428:210.7276311]
set grid ytics mytics back lt 1 lc rgb '#dcdcdc' lw 1, lt 1 lc rgb '#f0f0f0' lw 1
set arrow from graph 0, first 1 to graph 1, first 1 nohead front lw 2 dt (10,6) lc rgb '#404040'
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'patterns-speedup-all.svg'
plot $bars using 2:3:4:xtic(1) lt 1 title 'measured (95% CI)', \
     keyentry with lines lw 2 dt (10,6) lc rgb '#404040' title 'no speedup (1.000)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'patterns-speedup-all.png'
replot
unset output
