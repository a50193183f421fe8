# bandwidth-flat.gp - a chart of gpubound, drawn by: gnuplot bandwidth-flat.gp (in this directory)
reset
$bars << EOD
"read" 860.0253669 859.0551683 860.1610606 1701.33449 1701.034967 1701.891096 3360.65292 3356.299848 3363.001441
"write" 848.55021 848.3731794 848.8775315 1697.583396 1697.368582 1697.884036 3391.049328 3388.651843 3391.734719
"copy" 1691.198327 1690.591169 1692.019171 3362.293795 3361.830724 3364.696221 4285.778421 4280.721203 4289.339608
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
set arrow from graph 0, first 4259.663098 to graph 1, first 4259.663098 nohead front lw 2 dt (3,4) lc rgb '#1a1a1a'
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'bandwidth-flat.svg'
plot $bars using 2:3:4:xtic(1) lt 1 title '4 B per thread', \
     $bars using 5:6:7 lt 2 title '8 B per thread', \
     $bars using 8:9:10 lt 3 title '16 B per thread', \
     keyentry with lines lw 2 dt (10,6) lc rgb '#404040' title 'theoretical peak (4814 GB/s)', \
     keyentry with lines lw 2 dt (3,4) lc rgb '#1a1a1a' title 'driver copy (4260 GB/s)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'bandwidth-flat.png'
replot
unset output
