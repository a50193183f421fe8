# transpose-tiles.gp - a chart of gpubound, drawn by: gnuplot transpose-tiles.gp (in this directory)
reset
$bars << EOD
"16x16" 1967.771008 1965.005322 1970.544491 2064.88808 2062.349785 2068.45221 1663.911109 1662.921638 1664.901911
"32x8" 1740.645963 1739.653281 1742.544293 3523.884777 3513.553233 3538.750466 3408.61764 3401.70652 3423.223132
"48x16" 2082.056994 2077.931254 2084.644183 2709.498657 2698.603152 2716.518137 2387.875907 2385.838455 2392.643522
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
set title 'Transpose: tile and block shapes, 8192 x 8192' . "\n" . 'NVIDIA H200, 2026-11-21' font ',18'
set xlabel 'tile edge x thread rows'
set ylabel 'throughput (GB/s, read + write)'
set style data histograms
set style histogram errorbars gap 1.5 lw 1.5
set style fill solid 0.85 border rgb '#303030'
set boxwidth 0.92 relative
set errorbars 1.2 lc rgb '#202020'
set xtics nomirror scale 0
set xrange [-0.6:2.6]
set yrange [0:4701.745334]
set format y '%g'
set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1
set arrow from graph 0, first 4274.31394 to graph 1, first 4274.31394 nohead front lw 2 dt (10,6) lc rgb '#404040'
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'transpose-tiles.svg'
plot $bars using 2:3:4:xtic(1) lt 1 title 'coalesced', \
     $bars using 5:6:7 lt 2 title 'padded', \
     $bars using 8:9:10 lt 3 title 'diagonal', \
     keyentry with lines lw 2 dt (10,6) lc rgb '#404040' title 'driver copy, best n (4274 GB/s)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'transpose-tiles.png'
replot
unset output
