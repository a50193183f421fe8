# bandwidth-flat.gp - a chart of gpubound, drawn by: gnuplot bandwidth-flat.gp (in this directory)
reset
$bars << EOD
"read" 860.0307841 858.6656221 860.1718986 1701.248879 1700.22253 1702.019533 3359.312335 3356.132612 3362.162396
"write" 848.4911783 847.8479573 848.7165183 1697.604833 1697.497496 1697.712183 3391.049328 3388.651843 3391.563265
"copy" 1691.880521 1689.995149 1692.232474 3361.7465 3360.90465 3363.768568 4282.086745 4279.083091 4284.547325
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
set title 'Device memory bandwidth: one access per thread' . "\n" . 'NVIDIA H200, 2026-11-21' font ',18'
set xlabel 'kernel'
set ylabel 'bandwidth (GB/s, 1e9 bytes/s)'
set style data histograms
set style histogram errorbars gap 1.5 lw 1.5
set style fill solid 0.85 border rgb '#303030'
set boxwidth 0.92 relative
set errorbars 1.2 lc rgb '#202020'
set xtics nomirror scale 0
set xrange [-0.6:2.6]
set yrange [0:5295.7344]
set format y '%g'
set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1
set arrow from graph 0, first 4814.304 to graph 1, first 4814.304 nohead front lw 2 dt (10,6) lc rgb '#404040'
set arrow from graph 0, first 4258.852177 to graph 1, first 4258.852177 nohead front lw 2 dt (3,4) lc rgb '#1a1a1a'
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'bandwidth-flat.svg'
plot $bars using 2:3:4:xtic(1) lt 1 title '4 B per thread', \
     $bars using 5:6:7 lt 2 title '8 B per thread', \
     $bars using 8:9:10 lt 3 title '16 B per thread', \
     keyentry with lines lw 2 dt (10,6) lc rgb '#404040' title 'theoretical peak (4814 GB/s)', \
     keyentry with lines lw 2 dt (3,4) lc rgb '#1a1a1a' title 'driver copy (4259 GB/s)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'bandwidth-flat.png'
replot
unset output
